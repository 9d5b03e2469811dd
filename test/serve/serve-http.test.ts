/**
 * `idemgen serve --http` as real child processes: closed by default (token and Origin checked before any
 * tool runs), the token's subject as dedup scope, and two instances sharing one PostgreSQL dedup table.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { call, errorOf, httpClient, settle } from '../emit/mcp/client.js';
import { ACCOUNT, NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { spawnServe, type ServeProcess } from './spawn-serve.js';

const ALICE = 'alice-secret-token-0123456789';
const BOB = 'bob-secret-token-0123456789ab';
const TOOL = 'createMessage';
let api: FaultServer | undefined;
const running: ServeProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-http-'));
const spec = join(dir, 'notes.json');
writeFileSync(spec, JSON.stringify(NOTES_SPEC));

async function serve(args: string[]): Promise<ServeProcess> {
  const p = await spawnServe([
    spec,
    '--http',
    '0',
    '--base-url',
    (api as FaultServer).url,
    '--arg',
    `AccountSid=${ACCOUNT}`,
    ...args,
  ]);
  running.push(p);
  return p;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  await api?.close();
  api = undefined;
});

const message = (key: string) => ({ body: { to: '+15550100', body: 'hello' }, idempotency_key: key });
const rpc = (
  body: unknown = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: TOOL, arguments: message('raw-http-key-00001') },
  },
) => JSON.stringify(body);
const post = (url: string, headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: rpc(),
  });

describe('serve --http is closed by default', () => {
  it('refuses a missing or wrong token and a foreign Origin before any tool runs', async () => {
    api = await startFaultServer();
    const { url } = await serve(['--store', `sqlite:${join(dir, 'guard.sqlite')}`, '--token', `alice=${ALICE}`]);
    expect((await post(url, {})).status).toBe(401);
    expect((await post(url, { authorization: 'Bearer wrong-token-but-long-enough' })).status).toBe(401);
    expect((await post(url, { authorization: `Bearer ${ALICE}`, origin: 'http://evil.example' })).status).toBe(403);
    expect(api.requests).toHaveLength(0);
    // The same request with the token (and a loopback Origin) does reach the API.
    const ok = await post(url, { authorization: `Bearer ${ALICE}`, origin: 'http://localhost:5173' });
    expect(ok.status).toBe(200);
    await ok.text();
    expect(api.effects).toBe(1);
  });

  it('does not start on a non-loopback address without a token', async () => {
    const run = await runCli(['serve', spec, '--http', '0', '--host', '0.0.0.0'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/needs a bearer token/);
  });

  it('reports a store it cannot open, a missing spec and clashing flags as usage errors (exit 2, no stack)', async () => {
    const store = await runCli(['serve', spec, '--store', 'mysql://127.0.0.1:1/x'], dir);
    expect([store.code, /cannot open the dedup store/.test(store.stderr), /\n\s+at /.test(store.stderr)]).toEqual([
      2,
      true,
      false,
    ]);
    const missing = await runCli(['serve', join(dir, 'nope.json')], dir);
    expect([missing.code, /nope\.json \(not found\).*no_input_document/.test(missing.stderr)]).toEqual([2, true]);
    const both = await runCli(['serve', spec, '--read-only', '--writes-only'], dir);
    expect([both.code, /exclude each other/.test(both.stderr)]).toEqual([2, true]);
  });

  it('two users sending the same key get their own results', async () => {
    api = await startFaultServer();
    const { url } = await serve([
      '--store',
      `sqlite:${join(dir, 'users.sqlite')}`,
      '--token',
      `alice=${ALICE}`,
      '--token',
      `bob=${BOB}`,
    ]);
    const alice = await httpClient(url, { authorization: `Bearer ${ALICE}` });
    const bob = await httpClient(url, { authorization: `Bearer ${BOB}` });
    try {
      const a1 = await call(alice, TOOL, message('shared-key-between-users-1'));
      const b1 = await call(bob, TOOL, message('shared-key-between-users-1'));
      const a2 = await call(alice, TOOL, message('shared-key-between-users-1'));
      expect(a1.structuredContent).toMatchObject({ was_replay: false, result: { effect: 1 } });
      expect(b1.structuredContent).toMatchObject({ was_replay: false, result: { effect: 2 } });
      expect(a2.structuredContent).toMatchObject({ was_replay: true, result: { effect: 1 } });
      expect(api.effects).toBe(2);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});

describe.each(['postgres', 'mysql'] as const)('two serve instances sharing one %s store', (kind) => {
  const database = 'idemgen_serve_shared';
  let url = '';
  beforeAll(async () => {
    if (kind === 'postgres') {
      const admin = new pg.Client({ connectionString: inject('pgUrl') });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
    } else {
      const admin = await mysql.createConnection(inject('mysqlUrl'));
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
    }
    const u = new URL(inject(kind === 'postgres' ? 'pgUrl' : 'mysqlUrl'));
    u.pathname = `/${database}`;
    url = u.toString();
  });
  afterAll(() => undefined);

  it('the same call with the same key sent to both at once → 1 effect, one of them a replay', async () => {
    api = await startFaultServer();
    api.inject({ kind: 'delay', ms: 400 });
    // Both start at once: the PostgreSQL migration runs under an advisory lock, MySQL's DDL is IF NOT EXISTS.
    const [one, two] = await Promise.all([serve(['--store', url]), serve(['--store', url])]);
    const a = await httpClient(one!.url);
    const b = await httpClient(two!.url);
    try {
      const args = message('shared-store-key-000001');
      const [ra, rb] = await Promise.all([call(a, TOOL, args), call(b, TOOL, args)]);
      const settled = await Promise.all(
        [ra, rb].map((r, i) => {
          const code = errorOf(r)?.code;
          return code === 'idempotency_in_flight' || code === 'in_flight' ? settle(i === 0 ? a : b, TOOL, args) : r;
        }),
      );
      expect(api.effects).toBe(1);
      const replays = settled.map((r) => (r.structuredContent as { was_replay?: boolean }).was_replay);
      expect(replays.sort()).toEqual([false, true]);
      expect(settled.every((r) => (r.structuredContent as { result: { effect: number } }).result.effect === 1)).toBe(
        true,
      );
    } finally {
      await a.close();
      await b.close();
    }
  });
});
