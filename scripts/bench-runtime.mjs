#!/usr/bin/env node
/**
 * Runtime overhead benchmark (not a test; DESIGN §7): median per-call time of
 *   raw        — the bare side effect (a POST to a local node:http server, and an in-process no-op),
 *   store      — the bare store statements an idempotent call issues (claim + complete),
 *   idempotent — createIdempotency().run() with a fresh key (hash + claim + call + complete),
 *   replay     — run() with a key that already completed (hash + claim-conflict + read),
 * on SQLite (a WAL file in a temp dir), PostgreSQL and Redis. PostgreSQL comes from IDEMGEN_PG_URL and
 * Redis from IDEMGEN_REDIS_URL, or throwaway servers are started the way test/setup/services.ts does it.
 * On Redis the same server also runs the bare commands a claim+complete needs at minimum (SET NX, SET XX)
 * and AWS Powertools' `makeIdempotent` + `CachePersistenceLayer`, side by side in one run.
 * First: the OpenTelemetry hooks' cost with no SDK registered (ratio against `telemetry: false`).
 * Run `npm run build` first: the runtime measured is the built package (`--src`: the sources via tsx).
 * Usage: node scripts/bench-runtime.mjs [--calls 2000] [--only otel|sqlite|redis] [--src]
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';
import { startJsonServer } from './lib/bench-kit.mjs';

register();
// The runtime as published (`npm run build` refreshes packages/runtime, which @idemgen/runtime points at):
// what users run. `--src` measures the TypeScript sources through tsx instead, whose transform wraps
// every function it creates in a naming helper (esbuild keepNames) — a cost the published build lacks.
const fromSrc = process.argv.includes('--src');
const rt = fromSrc
  ? {
      ...(await import('../packages/runtime/src/index.ts')),
      ...(await import('../packages/runtime/src/store/sqlite.ts')),
      ...(await import('../packages/runtime/src/store/postgres.ts')),
      ...(await import('../packages/runtime/src/store/redis/store.ts')),
    }
  : {
      ...(await import('@idemgen/runtime')),
      ...(await import('@idemgen/runtime/sqlite')),
      ...(await import('@idemgen/runtime/postgres')),
      ...(await import('@idemgen/runtime/redis')),
    };
console.log(
  `runtime under test: ${fromSrc ? 'packages/runtime/src via tsx (--src)' : '@idemgen/runtime (packages/runtime, the build)'}`,
);
const { renderStoreMigration } = await import('../src/emit/sql/index.ts');
const { resolveConfig } = await import('../src/config/types.ts');
const { default: Database } = await import('better-sqlite3');
const { default: pg } = await import('pg');
const { benchRedis } = await import('./bench-runtime-redis.mjs');
const { benchTelemetry } = await import('./bench-runtime-otel.mjs');

const callsArg = process.argv.indexOf('--calls');
const CALLS = callsArg > 0 ? Number(process.argv[callsArg + 1]) : 2000;
const PG_BIN = process.env.IDEMGEN_PG_BIN ?? '/usr/lib/postgresql/15/bin';

function freePort() {
  return new Promise((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function asPostgres(cmd, args) {
  if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' });
  else execFileSync(cmd, args, { stdio: 'pipe' });
}

async function startPostgres() {
  if (process.env.IDEMGEN_PG_URL) return { url: process.env.IDEMGEN_PG_URL, stop: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-bench-pg-'));
  chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) {
    const id = (f) => Number(execFileSync('id', [f, 'postgres']).toString().trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  asPostgres(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  asPostgres(join(PG_BIN, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function median(n, fn) {
  for (let i = 0; i < Math.min(200, n); i++) await fn(`warm-${i}`); // JIT, statement caches, pool
  const samples = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(`k${i}`);
    samples[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  samples.sort();
  return { p50: samples[Math.floor(n / 2)], p95: samples[Math.floor(n * 0.95)] };
}

async function benchStore(label, store, httpUrl) {
  const key = (p, s) => `${label}-${p}-${s}-0123456789abcdef`;
  const caller = rt.createHttpCaller({ baseUrl: httpUrl });
  const post = () =>
    caller.send({ method: 'POST', path: '/x', body: { amount: 1 }, bodyType: 'json', mechanism: 'fail-closed' });
  const idem = rt.createIdempotency({ store });
  const run = (p, fn) => (s) =>
    idem.run({ operation: 'POST /x', key: key(p, s), args: { amount: 1, to: 'acct_1' }, mechanism: 'fail-closed' }, fn);
  const bare = async (s) => {
    const id = { scope: '', key: key('bare', s) };
    const now = Date.now();
    await store.claim({
      ...id,
      operation: 'POST /x',
      argsHash: 'a'.repeat(64),
      mechanism: 'fail-closed',
      leaseToken: s,
      now,
      leaseMs: 30_000,
      ttlMs: 86_400_000,
    });
    await store.complete({ ...id, leaseToken: s, now, result: '{"ok":1}' });
  };
  await run('replay', async () => ({ ok: 1 }))('fixed');
  return {
    rawNoop: await median(CALLS, async () => ({ ok: 1 })),
    rawHttp: await median(CALLS, post),
    store: await median(CALLS, bare),
    idemNoop: await median(
      CALLS,
      run('noop', async () => ({ ok: 1 })),
    ),
    idemHttp: await median(CALLS, run('http', post)),
    replay: await median(CALLS, () => run('replay', async () => ({ ok: 1 }))('fixed')),
  };
}

function report(label, r) {
  const f = (x) => `${x.p50.toFixed(1).padStart(8)} µs (p95 ${x.p95.toFixed(1)})`;
  console.log(`\n${label} — medians of ${CALLS} sequential calls`);
  console.log(`  raw no-op call            ${f(r.rawNoop)}`);
  console.log(`  raw HTTP POST             ${f(r.rawHttp)}`);
  console.log(`  bare store claim+complete ${f(r.store)}`);
  console.log(
    `  idempotent no-op call     ${f(r.idemNoop)}   overhead ${(r.idemNoop.p50 - r.rawNoop.p50).toFixed(1)} µs`,
  );
  console.log(
    `  idempotent HTTP POST      ${f(r.idemHttp)}   ${(r.idemHttp.p50 / r.rawHttp.p50).toFixed(2)}× raw HTTP`,
  );
  console.log(`  replay (no call)          ${f(r.replay)}   ${(r.replay.p50 / r.rawHttp.p50).toFixed(2)}× raw HTTP`);
  console.log(`  runtime cost beyond the store statements: ${(r.idemNoop.p50 - r.store.p50).toFixed(1)} µs`);
}

const http = await startJsonServer('{"id":"obj_1"}');
const httpUrl = http.url;
const sql = { ...resolveConfig().sql, dedupTable: 'bench_dedup', sagaTable: 'bench_saga' };

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
if (only === undefined || only === 'otel') await benchTelemetry({ rt, CALLS });
if (only === 'otel') process.exit(0);
if (only === 'redis') {
  await benchRedis({ rt, CALLS, median, benchStore, report, httpUrl });
  http.close();
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'idemgen-bench-'));
const filename = join(dir, 'bench.db');
const db = new Database(filename);
db.exec(renderStoreMigration('sqlite', sql, { saga: false }).up);
db.close();
const sqlite = rt.createSqliteStore({ filename, table: sql.dedupTable });
report('SQLite (WAL file)', await benchStore('sqlite', sqlite, httpUrl));
await sqlite.close();
rmSync(dir, { recursive: true, force: true });
if (only === 'sqlite') {
  http.close();
  process.exit(0);
}

const cluster = await startPostgres();
try {
  const schema = `bench_${process.pid}`;
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  await client.query(renderStoreMigration('postgres', { ...sql, schema }, { saga: false }).up);
  const store = rt.createPostgresStore({ connectionString: cluster.url, schema, table: sql.dedupTable });
  report('PostgreSQL (local, TCP)', await benchStore('pg', store, httpUrl));
  await store.close();
  await client.query(`DROP SCHEMA "${schema}" CASCADE`);
  await client.end();
} finally {
  cluster.stop();
}
try {
  await benchRedis({ rt, CALLS, median, benchStore, report, httpUrl });
} finally {
  http.close();
}
