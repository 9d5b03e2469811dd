/**
 * The dedup scope is the whole principal, black-box: the real `idemgen serve --http --upstream-header` CLI
 * (full, `--dynamic` and `--code`) on a counting node:http API that answers with the account the request
 * acted on, driven by the real MCP SDK client. Two callers behind the same (absent) subject who send the same
 * `idempotency_key` — or the same host intent — with different API credentials act on two accounts: two
 * effects, each answered with its own account's result. The same caller's retry is still one effect.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTENT_META } from '../../packages/runtime/src/mcp/server.js';
import { runCli } from '../helpers/cli.js';
import { jsonAnswer, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { call, errorOf, httpClient, type Result } from '../emit/mcp/client.js';
import { ACCOUNT, NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { spawnServe, type ServeProcess } from './spawn-serve.js';

const dir = mkdtempSync(join(tmpdir(), 'idemgen-hostile-scope-'));
const spec = join(dir, 'notes.json');
writeFileSync(spec, JSON.stringify(NOTES_SPEC));

let api: FaultServer;
const servers: Record<'full' | 'dynamic' | 'code', ServeProcess | undefined> = {
  full: undefined,
  dynamic: undefined,
  code: undefined,
};
const clients: Client[] = [];

const mode = (name: keyof typeof servers, flags: string[]) =>
  spawnServe([
    spec,
    '--http',
    '0',
    '--base-url',
    api.url,
    '--arg',
    `AccountSid=${ACCOUNT}`,
    '--store',
    `sqlite:${join(dir, `${name}.sqlite`)}`,
    '--upstream-header',
    'bearerAuth=X-Upstream-Token',
    ...flags,
  ]).then((p) => {
    servers[name] = p;
  });

beforeAll(async () => {
  // The API answers with the account the credential names: a caller can tell its result from another's.
  api = await startFaultServer({
    respond: (req, effect) => jsonAnswer(200, { effect, account: req.headers.authorization }),
  });
  await Promise.all([mode('full', []), mode('dynamic', ['--dynamic']), mode('code', ['--code'])]);
}, 120_000);

afterAll(async () => {
  for (const c of clients.splice(0)) await c.close();
  await Promise.all(Object.values(servers).map((p) => p?.stop()));
  await api?.close();
});

async function caller(url: string, upstreamToken: string): Promise<Client> {
  const c = await httpClient(url, { 'x-upstream-token': upstreamToken });
  clients.push(c);
  return c;
}

const message = (key?: string) => ({
  body: { to: '+15550100', body: 'hello' },
  ...(key !== undefined ? { idempotency_key: key } : {}),
});
const resultOf = (r: Result) => {
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as { was_replay: boolean; result: { effect: number; account: string } };
};

describe('serve: callers with different upstream credentials never share a dedup row', () => {
  it('registered tools: the same idempotency_key from two accounts → 2 effects, each its own result', async () => {
    const url = servers.full!.url;
    const alice = await caller(url, 'acct-alice-token');
    const bob = await caller(url, 'acct-bob-token');
    const before = api.effects;
    const key = 'shared-key-from-two-callers-01';
    const a = resultOf(await call(alice, 'createMessage', message(key)));
    const b = resultOf(await call(bob, 'createMessage', message(key)));
    expect(api.effects - before).toBe(2);
    expect(a).toMatchObject({ was_replay: false, result: { account: 'Bearer acct-alice-token' } });
    expect(b).toMatchObject({ was_replay: false, result: { account: 'Bearer acct-bob-token' } });
    // Each caller's own retry is still deduplicated, and replays its own account's result.
    const again = resultOf(await call(bob, 'createMessage', message(key)));
    expect(again).toMatchObject({ was_replay: true, result: { account: 'Bearer acct-bob-token' } });
    expect(api.effects - before).toBe(2);
  });

  it('registered tools: the same host intent from two accounts → 2 effects, each its own result', async () => {
    const url = servers.full!.url;
    const alice = await caller(url, 'acct-alice-token');
    const bob = await caller(url, 'acct-bob-token');
    const before = api.effects;
    const intent = { _meta: { [INTENT_META]: { thread: 'shared-thread', turn: 1 } } };
    const send = (c: Client) =>
      c.callTool({ name: 'createMessage', arguments: message(), ...intent }) as Promise<Result>;
    const a = resultOf(await send(alice));
    const b = resultOf(await send(bob));
    expect(api.effects - before).toBe(2);
    expect([a.result.account, b.result.account]).toEqual(['Bearer acct-alice-token', 'Bearer acct-bob-token']);
    expect(resultOf(await send(alice))).toMatchObject({ was_replay: true, result: { account: a.result.account } });
    expect(api.effects - before).toBe(2);
  });

  it('--dynamic invoke_tool: the same key from two accounts → 2 effects', async () => {
    const url = servers.dynamic!.url;
    const alice = await caller(url, 'acct-alice-token');
    const bob = await caller(url, 'acct-bob-token');
    const before = api.effects;
    const invoke = (c: Client) =>
      call(c, 'invoke_tool', { name: 'createMessage', arguments: message('shared-key-dynamic-mode-01') });
    const a = resultOf(await invoke(alice));
    const b = resultOf(await invoke(bob));
    expect(api.effects - before).toBe(2);
    expect([a.result.account, b.result.account]).toEqual(['Bearer acct-alice-token', 'Bearer acct-bob-token']);
  });

  it('--code execute: the same run key from two accounts → 2 effects, each its own result', async () => {
    const url = servers.code!.url;
    const alice = await caller(url, 'acct-alice-token');
    const bob = await caller(url, 'acct-bob-token');
    const before = api.effects;
    const code = "return await api.createMessage({ body: { to: '+15550100', body: 'hello' } });";
    const run = async (c: Client) => {
      const r = await call(c, 'execute', { code, idempotency_key: 'shared-run-key-code-mode-01' }, 60_000);
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      return (r.structuredContent as { result: { account: string } }).result;
    };
    const a = await run(alice);
    const b = await run(bob);
    expect(api.effects - before).toBe(2);
    expect([a.account, b.account]).toEqual(['Bearer acct-alice-token', 'Bearer acct-bob-token']);
    expect((await run(alice)).account).toBe('Bearer acct-alice-token');
    expect(api.effects - before).toBe(2);
  });

  it('the stored scope holds an HMAC of the credential, never the credential itself', () => {
    const db = new Database(join(dir, 'full.sqlite'), { readonly: true });
    const scopes = (db.prepare('SELECT DISTINCT scope FROM idemgen_dedup').all() as { scope: string }[]).map(
      (r) => r.scope,
    );
    db.close();
    expect(scopes).toHaveLength(2);
    for (const scope of scopes) {
      expect(scope).toMatch(/^\{"principal":"","upstream":"hmac-sha256:[0-9a-f]{64}"\}$/);
      expect(scope).not.toContain('acct-');
    }
    // The secret was made once beside the database, readable by its owner only.
    const secretFile = join(dir, 'full.sqlite.scope-secret');
    expect(readFileSync(secretFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(secretFile).mode & 0o077).toBe(0);
  });

  it('a caller without the mapped header is refused before anything is sent', async () => {
    const c = await httpClient(servers.full!.url);
    clients.push(c);
    const before = api.effects;
    const r = await call(c, 'createMessage', message('no-upstream-header-key-01'));
    expect(errorOf(r)).toMatchObject({ code: 'upstream_credential_missing', executed: 'no' });
    expect(api.effects).toBe(before);
  });
});

describe('serve: the scope secret', () => {
  it('a shared store without IDEMGEN_SCOPE_SECRET, or a short one, refuses to start (exit 2, one line)', async () => {
    const shared = await runCli(
      ['serve', spec, '--http', '0', '--store', 'postgres://127.0.0.1:1/x', '--upstream-header', 'bearerAuth=X-T'],
      dir,
    );
    expect([shared.code, /needs IDEMGEN_SCOPE_SECRET/.test(shared.stderr), /\n\s+at /.test(shared.stderr)]).toEqual([
      2,
      true,
      false,
    ]);
    process.env.IDEMGEN_SCOPE_SECRET = 'too-short';
    const short = await runCli(['serve', spec, '--http', '0', '--upstream-header', 'bearerAuth=X-T'], dir).finally(
      () => delete process.env.IDEMGEN_SCOPE_SECRET,
    );
    expect([short.code, /IDEMGEN_SCOPE_SECRET has 9 bytes; at least 32/.test(short.stderr)]).toEqual([2, true]);
  });
});
