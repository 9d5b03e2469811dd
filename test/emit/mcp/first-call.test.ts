/**
 * The generated MCP module's `main()` on a fresh machine: no store file, no migration run by hand. Its
 * first call of a compensatable (OP-5) tool succeeds, because `main()` creates the dedup and saga tables
 * from `mcp/store-tables.gen.ts` before serving; with `IDEMGEN_MIGRATE=0` a bare store stops the start
 * with one line on stderr (exit 1) instead of failing the first call. A module whose writes need no row
 * (native keys only) opens no store at all.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'yaml';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';
import { jsonAnswer, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { call, stdioClient } from './client.js';
import { generateModules } from './generate-modules.js';
import { WIDGETS_SPEC } from './widgets-spec.js';

let modulePath = '';
let api: FaultServer | undefined;
const dir = mkdtempSync(join(tmpdir(), 'idemgen-mcp-first-call-'));

beforeAll(async () => {
  const generated = await generateModules('widgets', 'widgets.json', WIDGETS_SPEC);
  expect([...generated.paths.keys()].sort()).toEqual([
    'handlers/widgets.bindings.gen.ts',
    'handlers/widgets.tools.gen.ts',
    'mcp/store-tables.gen.ts',
    'mcp/widgets.server.gen.ts',
  ]);
  modulePath = generated.paths.get('mcp/widgets.server.gen.ts') as string;
});
afterEach(async () => {
  await api?.close();
  api = undefined;
});

it('main() on a store that does not exist yet: the first OP-5 tool call succeeds', async () => {
  api = await startFaultServer({ respond: (_req, n) => jsonAnswer(201, { id: `wid_${n}` }) });
  const file = join(dir, 'fresh', 'idemgen.sqlite');
  const client = await stdioClient([modulePath], { IDEMGEN_STORE: `sqlite:${file}`, IDEMGEN_BASE_URL: api.url });
  try {
    const r = await call(client, 'createWidget', { body: { name: 'first' }, idempotency_key: 'first-call-key-0001' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ was_replay: false, result: { id: 'wid_1' } });
    expect(api.effects).toBe(1);
  } finally {
    await client.close();
  }
  const db = new Database(file, { readonly: true });
  try {
    expect(db.prepare('SELECT status, external_id FROM idemgen_saga').all()).toEqual([
      { status: 'completed', external_id: 'wid_1' },
    ]);
  } finally {
    db.close();
  }
});

it('IDEMGEN_MIGRATE=0 on a bare store: exit 1 with one line naming the missing table', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', modulePath], {
    cwd: ROOT,
    env: { ...process.env, IDEMGEN_STORE: `sqlite:${join(dir, 'bare.sqlite')}`, IDEMGEN_MIGRATE: '0' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(1);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(/^MCP server did not start: the SQLite table idemgen_dedup does not exist/);
});

it("main() with the config's table names (sql.dedupTable, sql.sagaTable) creates and uses those tables", async () => {
  const named = await generateModules('widgets-named', 'widgets.json', WIDGETS_SPEC, {
    sql: { dedupTable: 'app_dedup', sagaTable: 'app_saga' },
  });
  expect(named.texts.get('mcp/store-tables.gen.ts')).toContain('sagaTable: "app_saga"');
  api = await startFaultServer({ respond: (_req, n) => jsonAnswer(201, { id: `wid_${n}` }) });
  const file = join(dir, 'named', 'idemgen.sqlite');
  const client = await stdioClient([named.paths.get('mcp/widgets.server.gen.ts') as string], {
    IDEMGEN_STORE: `sqlite:${file}`,
    IDEMGEN_BASE_URL: api.url,
  });
  try {
    const r = await call(client, 'createWidget', { body: { name: 'named' }, idempotency_key: 'named-tables-key-0001' });
    expect(r.isError).toBeFalsy();
  } finally {
    await client.close();
  }
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    expect(tables).toEqual([{ name: 'app_dedup' }, { name: 'app_saga' }]);
    expect(db.prepare('SELECT status FROM app_saga').all()).toEqual([{ status: 'completed' }]);
  } finally {
    db.close();
  }
});

it('main() of a module whose every write has a native key opens no store: nothing created, the call runs', async () => {
  const payments = parse(readFileSync(join(ROOT, 'specs/payments.openapi.yaml'), 'utf8')) as unknown;
  const generated = await generateModules('payments-no-store', 'payments.json', payments);
  const text = generated.texts.get('mcp/payments.server.gen.ts') as string;
  expect(text).toContain('storeTables, needsStore: false };');
  api = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
  const file = join(dir, 'never', 'idemgen.sqlite');
  // With IDEMGEN_MIGRATE=0 a store would have to hold the tables already: a module that opened one would not start.
  const client = await stdioClient([generated.paths.get('mcp/payments.server.gen.ts') as string], {
    IDEMGEN_STORE: `sqlite:${file}`,
    IDEMGEN_MIGRATE: '0',
    IDEMGEN_BASE_URL: api.url,
  });
  try {
    const key = 'no-store-charge-key-0001';
    const r = await call(client, 'createCharge', {
      body: { amount: 100, currency: 'usd', source: 'tok_1' },
      idempotency_key: key,
    });
    expect(r.isError).toBeFalsy();
    expect(api.requests.map((q) => q.key)).toEqual([key]);
  } finally {
    await client.close();
  }
  expect(existsSync(join(dir, 'never'))).toBe(false);
});

it('a module with a write that keeps a row still opens its store (no needsStore: false)', () => {
  expect(readFileSync(modulePath, 'utf8')).toContain('storeTables };');
});
