#!/usr/bin/env node
/**
 * Per-call cost of the generated code and its runtime, this checkout against another commit (not a test):
 *   node scripts/bench-runtime-against.mjs --against DIR [--calls 500] [--rounds 8]
 * DIR is a built checkout of the other commit (`git worktree add --detach ../base <ref>`, then `npm ci` or a
 * node_modules link, and `npm run build` there). Each side generates the example specs (payments, inventory)
 * with its own CLI into a temporary folder; the generated files import that side's built runtime
 * (packages/runtime/dist/esm, rewritten from `@idemgen/runtime/…`), so each side runs its own generator's
 * output on its own runtime, both in this one process, against one local node:http server and one SQLite
 * WAL file per side (created by that side's generated migration). Rounds interleave the sides (the order
 * flips every round) and every scenario runs `--calls` sequential calls per round; the table gives the median
 * and p95 per call over all rounds and the ratio this/previous (below 1: this checkout is faster).
 * Scenarios: a read, a native-key write (the key in a header), an own-store write (dedup table, fresh key),
 * its replay (same key), and a native-key write as a model tool call (bindings → validation → the engine).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { startJsonServer, withRuntimeAt } from './lib/bench-kit.mjs';

register();
const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const against = opt('--against') && resolve(opt('--against'));
if (!against) throw new Error('usage: bench-runtime-against.mjs --against DIR (a built checkout of another commit)');
const CALLS = Number(opt('--calls', 500));
const ROUNDS = Number(opt('--rounds', 8));
const { default: Database } = await import('better-sqlite3');

const revision = (dir) => execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();

/** The runtime entry a side's generated code imports, by the package subpath it names. */
const RUNTIME_ENTRIES = { '': 'index.js', '/support': 'support.js', '/tools': 'tools/index.js' };

/** Generate the example specs with `dir`'s CLI and load that output on `dir`'s built runtime. */
async function loadSide(dir, label) {
  const runtimeDist = join(dir, 'packages/runtime/dist/esm');
  if (!existsSync(join(dir, 'dist/cli/main.js')) || !existsSync(runtimeDist))
    throw new Error(`${dir}: run \`npm run build\` there first`);
  const tmp = mkdtempSync(join(tmpdir(), `idemgen-bench-against-${label}-`));
  execFileSync(
    process.execPath,
    [
      join(dir, 'bin/idemgen.js'),
      'generate',
      join(root, 'specs/payments.openapi.yaml'),
      join(root, 'specs/inventory.swagger.json'),
      '--out',
      join(tmp, 'generated'),
      '--no-cache',
      '--quiet',
    ],
    { cwd: tmp, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const gen = join(tmp, 'generated');
  writeFileSync(join(tmp, 'package.json'), '{ "type": "module" }\n'); // the generated .ts files are ES modules
  for (const folder of ['client', 'handlers'])
    for (const file of readdirSync(join(gen, folder)).filter((f) => f.endsWith('.ts'))) {
      const path = join(gen, folder, file);
      const text = withRuntimeAt(
        readFileSync(path, 'utf8'),
        (sub) => pathToFileURL(join(runtimeDist, RUNTIME_ENTRIES[sub])).href,
      );
      writeFileSync(path, text);
    }
  const rt = await import(pathToFileURL(join(runtimeDist, 'store/sqlite.js')).href);
  const filename = join(tmp, 'dedup.db');
  const db = new Database(filename);
  const sqlite = join(gen, 'sql/sqlite');
  for (const f of readdirSync(sqlite)
    .filter((f) => f.endsWith('.up.sql'))
    .sort())
    db.exec(readFileSync(join(sqlite, f), 'utf8'));
  db.close();
  const store = rt.createSqliteStore({ filename });
  const payments = await import(pathToFileURL(join(gen, 'client/payments.gen.ts')).href);
  const inventory = await import(pathToFileURL(join(gen, 'client/inventory.gen.ts')).href);
  const tools = await import(pathToFileURL(join(gen, 'handlers/payments.tools.gen.ts')).href);
  return {
    label,
    tmp,
    store,
    payments: payments.createPaymentsClient({ baseUrl, retry: false }),
    inventory: inventory.createInventoryClient({ baseUrl, store, retry: false }),
    tools: tools.createPaymentsTools({ baseUrl, retry: false }),
  };
}

const server = await startJsonServer('{"id":"ch_1","amount":100,"currency":"eur","status":"succeeded","refunds":[]}');
const baseUrl = server.url;

const charge = { amount: 100, currency: 'eur', source: 'pm_1' };
let n = 0;
const fresh = (side) => `${side.label}-${process.pid}-${++n}-0123456789abcdef`;
/** Each scenario: one call on `side`; it must succeed (a failing call would measure an error path). */
const SCENARIOS = {
  'read (GET, client)': (s) => s.payments.getCharge({ path: { charge_id: 'ch_1' } }),
  'native-key write (client)': (s) => s.payments.createCharge({ body: charge }, { key: fresh(s) }),
  'own-store write, SQLite (client)': (s) =>
    s.inventory.fulfilOrder({ path: { order_id: 'o_1' }, body: { courier: 'dhl' } }, { key: fresh(s) }),
  'replay from the store (client)': (s) =>
    s.inventory.fulfilOrder(
      { path: { order_id: 'o_1' }, body: { courier: 'dhl' } },
      { key: `${s.label}-replay-0123456789` },
    ),
  'native-key write (tool call)': async (s) => {
    const out = await s.tools.call('createCharge', { body: charge, idempotency_key: fresh(s) });
    if (!out.ok) throw new Error(`${s.label} tool call failed: ${JSON.stringify(out).slice(0, 300)}`);
  },
};

const sides = [await loadSide(root, 'this'), await loadSide(against, 'previous')];
const samples = new Map(sides.map((s) => [s.label, Object.fromEntries(Object.keys(SCENARIOS).map((k) => [k, []]))]));
for (const side of sides) for (const run of Object.values(SCENARIOS)) for (let i = 0; i < 100; i++) await run(side); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
    for (const [name, run] of Object.entries(SCENARIOS)) {
      const out = samples.get(side.label)[name];
      for (let i = 0; i < CALLS; i++) {
        const t0 = process.hrtime.bigint();
        await run(side);
        out.push(Number(process.hrtime.bigint() - t0) / 1000);
      }
    }
  }
}
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];
console.log(
  `Per-call time, ${revision(root)} (this) vs ${revision(against)} (previous): each side's generated code on its own built runtime, ${ROUNDS} interleaved rounds × ${CALLS} calls per scenario`,
);
console.log('| scenario | this p50 µs | this p95 µs | previous p50 µs | previous p95 µs | p50 ratio this/previous |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const name of Object.keys(SCENARIOS)) {
  const a = samples.get('this')[name];
  const b = samples.get('previous')[name];
  const [a50, b50] = [quantile(a, 0.5), quantile(b, 0.5)];
  console.log(
    `| ${name} | ${a50.toFixed(1)} | ${quantile(a, 0.95).toFixed(1)} | ${b50.toFixed(1)} | ${quantile(b, 0.95).toFixed(1)} | ${(a50 / b50).toFixed(2)}× |`,
  );
}
for (const side of sides) {
  await side.store.close?.();
  rmSync(side.tmp, { recursive: true, force: true });
}
server.close();
