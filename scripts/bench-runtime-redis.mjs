/**
 * The Redis part of bench-runtime.mjs: our store, the bare commands, and AWS Powertools idempotency
 * (makeIdempotent + CachePersistenceLayer) on one throwaway redis-server (or IDEMGEN_REDIS_URL).
 * Both wrappers run the same no-op function with a fresh key per call (claim → call → complete) and
 * the same repeat (replay); the ratio is ours / theirs on medians.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { makeIdempotent, IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { CachePersistenceLayer } from '@aws-lambda-powertools/idempotency/cache';

const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

async function startRedis() {
  if (process.env.IDEMGEN_REDIS_URL) return { url: process.env.IDEMGEN_REDIS_URL, stop: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-bench-redis-'));
  const port = await freePort();
  const child = spawn(process.env.IDEMGEN_REDIS_SERVER ?? '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const c = createClient({ url }); c.on('error', () => undefined);
      await c.connect(); await c.close(); break;
    } catch (err) { if (i > 200) throw err; await new Promise((r) => setTimeout(r, 50)); }
  }
  return { url, stop: () => { child.kill('SIGKILL'); rmSync(dir, { recursive: true, force: true }); } };
}

export async function benchRedis({ rt, CALLS, median, benchStore, report, httpUrl }) {
  const server = await startRedis();
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    const store = rt.createRedisStore({ client, prefix: `bench${process.pid}` });
    const r = await benchStore('redis', store, httpUrl);
    const bare = await median(CALLS, async (s) => {
      const k = `bare:${s}`;
      await client.set(k, 'pending', { NX: true, PX: 30_000 });
      await client.set(k, '{"ok":1}', { XX: true, PX: 86_400_000 });
    });
    report('Redis (local, TCP, one client)', r);
    const f = (x) => `${x.p50.toFixed(1).padStart(8)} µs (p95 ${x.p95.toFixed(1)})`;
    console.log(`  bare SET NX + SET XX      ${f(bare)}   our claim+complete scripts: ${(r.store.p50 / bare.p50).toFixed(2)}× the bare commands`);

    // Side by side: the same function, same payload shape, fresh key per call, then a fixed repeat.
    const persistenceStore = new CachePersistenceLayer({ client });
    const config = new IdempotencyConfig({ expiresAfterSeconds: 86_400 });
    // Outside Lambda it warns on every call without a context; a 30 s budget mirrors our 30 s lease.
    config.registerLambdaContext({ getRemainingTimeInMillis: () => 30_000 });
    const theirs = makeIdempotent(async () => ({ ok: 1 }), { persistenceStore, config });
    const idem = rt.createIdempotency({ store });
    const ours = (key) => idem.run({ operation: 'POST /x', key, args: { amount: 1, to: 'acct_1' }, mechanism: 'fail-closed' }, async () => ({ ok: 1 }));
    const payload = (s) => ({ idempotency_key: `pt-${s}-0123456789abcdef`, amount: 1, to: 'acct_1' });
    await ours('fixed-0123456789abcdef');
    await theirs(payload('fixed'));
    // Alternate the two so neither gets a warmer machine; each median is over CALLS calls.
    const rounds = 4;
    const acc = { ours: [], theirs: [], oursReplay: [], theirsReplay: [] };
    for (let i = 0; i < rounds; i++) {
      const n = Math.ceil(CALLS / rounds);
      acc.ours.push((await median(n, (s) => ours(`o${i}-${s}-0123456789abcdef`))).p50);
      acc.theirs.push((await median(n, (s) => theirs(payload(`${i}-${s}`)))).p50);
      acc.oursReplay.push((await median(n, () => ours('fixed-0123456789abcdef'))).p50);
      acc.theirsReplay.push((await median(n, () => theirs(payload('fixed')))).p50);
    }
    const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [o, t, orp, trp] = [mid(acc.ours), mid(acc.theirs), mid(acc.oursReplay), mid(acc.theirsReplay)];
    console.log(`\nRedis side by side (median of ${rounds} alternating rounds × ${Math.ceil(CALLS / rounds)} calls, same server and client)`);
    console.log(`  idemgen run(), fresh key          ${o.toFixed(1).padStart(8)} µs`);
    console.log(`  Powertools makeIdempotent, fresh  ${t.toFixed(1).padStart(8)} µs   ours/theirs = ${(o / t).toFixed(2)}×`);
    console.log(`  idemgen replay                    ${orp.toFixed(1).padStart(8)} µs`);
    console.log(`  Powertools replay                 ${trp.toFixed(1).padStart(8)} µs   ours/theirs = ${(orp / trp).toFixed(2)}×`);
    await store.close();
  } finally {
    await client.close();
    server.stop();
  }
}
