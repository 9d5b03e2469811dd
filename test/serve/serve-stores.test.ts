/**
 * Every store a served tool needs exists before the first call: on a fresh SQLite file (in a folder that
 * does not exist yet) and a fresh PostgreSQL database, `idemgen serve` creates the dedup AND the saga table,
 * so the first call of a compensatable (OP-5) tool succeeds; with `--no-migrate` a store without its tables
 * stops the start with one line that names the missing table.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, expect, inject, it } from 'vitest';
import { call, httpClient } from '../emit/mcp/client.js';
import { WIDGETS_SPEC } from '../emit/mcp/widgets-spec.js';
import { runCli } from '../helpers/cli.js';
import { jsonAnswer, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { spawnServe, type ServeProcess } from './spawn-serve.js';

const dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-stores-'));
const spec = join(dir, 'widgets.json');
writeFileSync(spec, JSON.stringify(WIDGETS_SPEC));
let api: FaultServer | undefined;
let served: ServeProcess | undefined;

afterEach(async () => {
  await served?.stop();
  await api?.close();
  served = undefined;
  api = undefined;
});

async function firstCall(store: string, extra: string[] = []): Promise<Record<string, unknown> | undefined> {
  api = await startFaultServer({ respond: (_req, n) => jsonAnswer(201, { id: `wid_${n}` }) });
  served = await spawnServe([spec, '--http', '0', '--base-url', api.url, '--store', store, ...extra]);
  const client = await httpClient(served.url);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('createWidget');
    const r = await call(client, 'createWidget', { body: { name: 'first' }, idempotency_key: 'first-call-key-0001' });
    expect(r.isError).toBeFalsy();
    expect(api.effects).toBe(1);
    return r.structuredContent;
  } finally {
    await client.close();
  }
}

it('a fresh SQLite store: the first OP-5 tool call succeeds and its saga row is recorded', async () => {
  const file = join(dir, 'not-yet', 'serve.sqlite');
  const result = await firstCall(`sqlite:${file}`);
  expect(result).toMatchObject({ was_replay: false, result: { id: 'wid_1' } });
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare('SELECT status, external_id FROM idemgen_saga').all();
    expect(rows).toEqual([{ status: 'completed', external_id: 'wid_1' }]);
  } finally {
    db.close();
  }
});

it('the config names the tables: serve creates, checks and uses my_dedup and my_saga', async () => {
  const config = join(dir, 'names.config.json');
  writeFileSync(config, JSON.stringify({ sql: { dedupTable: 'my_dedup', sagaTable: 'my_saga' } }));
  const file = join(dir, 'names.sqlite');
  const result = await firstCall(`sqlite:${file}`, ['--config', config]);
  expect(result).toMatchObject({ was_replay: false, result: { id: 'wid_1' } });
  const db = new Database(file, { readonly: true });
  try {
    expect(db.prepare('SELECT status FROM my_saga').all()).toEqual([{ status: 'completed' }]);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    expect(tables).toEqual([{ name: 'my_dedup' }, { name: 'my_saga' }]);
  } finally {
    db.close();
  }
});

it('a fresh PostgreSQL database: both tables created at start, the first OP-5 call succeeds', async () => {
  const database = 'idemgen_serve_fresh';
  const admin = new pg.Client({ connectionString: inject('pgUrl') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const url = new URL(inject('pgUrl'));
  url.pathname = `/${database}`;
  const result = await firstCall(url.toString());
  expect(result).toMatchObject({ was_replay: false, result: { id: 'wid_1' } });
  const check = new pg.Client({ connectionString: url.toString() });
  await check.connect();
  try {
    const { rows } = await check.query('SELECT status, external_id FROM idemgen_saga');
    expect(rows).toEqual([{ status: 'completed', external_id: 'wid_1' }]);
  } finally {
    await check.end();
  }
});

it('--no-migrate on a store without tables: exit 2 and one line naming the missing table', async () => {
  const run = await runCli(['serve', spec, '--no-migrate', '--store', `sqlite:${join(dir, 'bare.sqlite')}`], dir);
  expect(run.code).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/cannot open the dedup store .*table idemgen_dedup does not exist.*idemgen migrate/);
});

it('--no-migrate on a store with only the dedup table: the missing saga table is named', async () => {
  const file = join(dir, 'dedup-only.sqlite');
  const { renderStoreMigration } = await import('../../src/emit/sql/index.js');
  const { resolveConfig } = await import('../../src/config/types.js');
  const db = new Database(file);
  db.exec(renderStoreMigration('sqlite', resolveConfig().sql, { saga: false }).up);
  db.close();
  const run = await runCli(['serve', spec, '--no-migrate', '--store', `sqlite:${file}`], dir);
  expect([run.code, run.stderr.trim().split('\n').length]).toEqual([2, 1]);
  expect(run.stderr).toMatch(/table idemgen_saga does not exist/);
});
