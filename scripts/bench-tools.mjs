#!/usr/bin/env node
/**
 * Tool-runtime overhead (what a generated handler module costs over the client): one write through the generated handler module
 * (`createMessagingTools().call('sendEmail', args)`: decode, Ajv validation, routing, one dedup row) vs.
 * the generated client method (`createMessagingClient().sendEmail(request, { key })`: one dedup row), both
 * against a local node:http API with a SQLite (WAL) dedup store, a fresh key per call. Prints the medians
 * and their ratio, and the same for a replay (the key already completed).
 * Usage: node scripts/bench-tools.mjs [--calls 1000]
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { register } from 'tsx/esm/api';
import { startJsonServer, withRuntimeAt } from './lib/bench-kit.mjs';

register();
const root = resolve(import.meta.dirname, '..');
const rt = {
  ...(await import('../packages/runtime/src/index.ts')),
  ...(await import('../packages/runtime/src/store/sqlite.ts')),
};
const { renderStoreMigration } = await import('../src/emit/sql/index.ts');
const { resolveConfig } = await import('../src/config/types.ts');
const { default: Database } = await import('better-sqlite3');

const callsArg = process.argv.indexOf('--calls');
const CALLS = callsArg > 0 ? Number(process.argv[callsArg + 1]) : 1000;

/**
 * The committed generated modules, pointed at the runtime sources (as the tests do), each in its folder (a
 * handlers module imports its bindings module beside it).
 */
async function loadGenerated(dir, rel) {
  const entries = { '': 'index.ts', '/support': 'support.ts', '/tools': 'tools/index.ts' };
  const text = withRuntimeAt(readFileSync(join(root, 'generated', rel), 'utf8'), (sub) =>
    join(root, 'packages/runtime/src', entries[sub]),
  );
  const file = join(dir, rel);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return import(file);
}

/**
 * Both variants interleaved call by call (alternating which goes first), so load on a shared machine,
 * SQLite checkpoints and GC land on both alike; then each variant's median and p95.
 */
async function paired(n, a, b) {
  for (let i = 0; i < Math.min(100, n); i++) {
    await a(`warm-${i}`);
    await b(`warm-${i}`);
  }
  const sa = new Float64Array(n);
  const sb = new Float64Array(n);
  const time = async (fn, s) => {
    const t0 = process.hrtime.bigint();
    await fn(s);
    return Number(process.hrtime.bigint() - t0) / 1000;
  };
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      sa[i] = await time(a, `k${i}`);
      sb[i] = await time(b, `k${i}`);
    } else {
      sb[i] = await time(b, `k${i}`);
      sa[i] = await time(a, `k${i}`);
    }
  }
  const stats = (x) => {
    x.sort();
    return { p50: x[Math.floor(n / 2)], p95: x[Math.floor(n * 0.95)] };
  };
  return [stats(sa), stats(sb)];
}

const http = await startJsonServer('{"id":"msg_1","status":"queued"}', 202);
const baseUrl = http.url;

const dir = mkdtempSync(join(tmpdir(), 'idemgen-bench-tools-'));
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
const filename = join(dir, 'dedup.db');
const db = new Database(filename);
db.exec(renderStoreMigration('sqlite', resolveConfig().sql, { saga: true }).up);
db.close();
const store = rt.createSqliteStore({ filename });

try {
  const { createMessagingClient } = await loadGenerated(dir, 'client/messaging.gen.ts');
  mkdirSync(join(dir, 'handlers'), { recursive: true });
  copyFileSync(
    join(root, 'generated/handlers/messaging.bindings.gen.ts'),
    join(dir, 'handlers/messaging.bindings.gen.ts'),
  );
  const { createMessagingTools } = await loadGenerated(dir, 'handlers/messaging.tools.gen.ts');
  const client = createMessagingClient({ baseUrl, store });
  const tools = createMessagingTools({ baseUrl, store });
  const body = { to: ['ops@example.com'], subject: 'Deploy finished', text: 'Build 42 is live.' };
  const key = (p, s) => `${p}-${s}-0123456789abcdef`;
  const direct = (s) => client.sendEmail({ body }, { key: key('client', s) });
  const viaTool = async (s) => {
    const out = await tools.call('sendEmail', { body, idempotency_key: key('tool', s) });
    if (!out.ok) throw new Error(JSON.stringify(out.error));
  };
  await direct('replay');
  await viaTool('replay');
  const mem = rt.createMemoryStore();
  const memClient = createMessagingClient({ baseUrl, store: mem });
  const memTools = createMessagingTools({ baseUrl, store: mem });
  const [memClientRun, memToolRun] = await paired(
    CALLS,
    (s) => memClient.sendEmail({ body }, { key: key('mc', s) }),
    (s) => memTools.call('sendEmail', { body, idempotency_key: key('mt', s) }),
  );
  const [clientRun, toolRun] = await paired(CALLS, direct, viaTool);
  const [clientReplay, toolReplay] = await paired(
    CALLS,
    () => direct('replay'),
    () => viaTool('replay'),
  );
  const r = { client: clientRun, tool: toolRun, clientReplay, toolReplay };
  const f = (x) => `${x.p50.toFixed(1).padStart(8)} µs (p95 ${x.p95.toFixed(1)})`;
  console.log(`\nsendEmail (fail-closed, SQLite WAL) — medians of ${CALLS} sequential calls`);
  console.log(`  generated client method   ${f(r.client)}`);
  console.log(
    `  generated tool handler    ${f(r.tool)}   ratio ${(r.tool.p50 / r.client.p50).toFixed(2)}×, +${(r.tool.p50 - r.client.p50).toFixed(1)} µs`,
  );
  console.log(`  (memory store, to isolate the runtime from fsync)`);
  console.log(`  generated client method   ${f(memClientRun)}`);
  console.log(
    `  generated tool handler    ${f(memToolRun)}   ratio ${(memToolRun.p50 / memClientRun.p50).toFixed(2)}×, +${(memToolRun.p50 - memClientRun.p50).toFixed(1)} µs`,
  );
  console.log(`  client replay             ${f(r.clientReplay)}`);
  console.log(
    `  tool replay               ${f(r.toolReplay)}   ratio ${(r.toolReplay.p50 / r.clientReplay.p50).toFixed(2)}×`,
  );
} finally {
  await store.close();
  http.close();
  rmSync(dir, { recursive: true, force: true });
}
