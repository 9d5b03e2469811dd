/**
 * The whole principal as the dedup scope in what users build on: the generated MCP module
 * (`registerNotesTools(server, { credentials, scopeSecret })`) served over Streamable HTTP on a real
 * node:http server, where each request's `X-Upstream-Token` header is its caller's API credential, and the
 * tool runtime itself (`createToolRuntime`, `ctx.credentials`). The real MCP SDK client, the counting API.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_META, withIdempotency } from '../../packages/runtime/src/mcp/index.js';
import { INTENT_META } from '../../packages/runtime/src/mcp/server.js';
import { createSqliteStore } from '../../packages/runtime/src/store/sqlite.js';
import type { DedupStore } from '../../packages/runtime/src/store/types.js';
import { createToolRuntime } from '../../packages/runtime/src/tools/runtime.js';
import { jsonAnswer, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { call, errorOf, httpClient, type Result } from '../emit/mcp/client.js';
import { generateModules } from '../emit/mcp/generate-modules.js';
import { ACCOUNT, NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { migratedSqliteFile } from '../runtime/mcp/sqlite-db.js';

const SECRET = 'module-scope-secret-0123456789abcdef';
let api: FaultServer;
let store: DedupStore;
let http: Server;
let url = '';
let register: (server: McpServer, options: Record<string, unknown>) => void;
const clients: Client[] = [];

beforeAll(async () => {
  api = await startFaultServer({
    respond: (req, effect) => jsonAnswer(200, { effect, account: req.headers.authorization }),
  });
  store = createSqliteStore({ filename: migratedSqliteFile('idemgen-hostile-module').file });
  const generated = await generateModules('notes-scope', 'notes.json', NOTES_SPEC);
  ({ registerNotesTools: register } = (await import(generated.paths.get('mcp/notes.server.gen.ts') as string)) as {
    registerNotesTools: typeof register;
  });
  // What an app does with the generated module over HTTP: a server per request, the caller's credential
  // read from its request's header.
  http = createServer(async (req, res) => {
    const server = new McpServer({ name: 'notes', version: '1.0.0' });
    register(server, {
      store,
      baseUrl: api.url,
      serverArguments: { AccountSid: ACCOUNT },
      scopeSecret: SECRET,
      credentials: (extra: { requestInfo?: { headers: Record<string, string | string[] | undefined> } }) => {
        const token = extra.requestInfo?.headers['x-upstream-token'];
        return typeof token === 'string' ? { bearerAuth: token } : undefined;
      },
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}, 60_000);

afterAll(async () => {
  for (const c of clients.splice(0)) await c.close();
  http?.closeAllConnections();
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  await store?.close();
  await api?.close();
});

async function caller(token: string): Promise<Client> {
  const c = await httpClient(url, { 'x-upstream-token': token });
  clients.push(c);
  return c;
}

const message = (key?: string) => ({
  body: { to: '+15550100', body: 'hi' },
  ...(key !== undefined ? { idempotency_key: key } : {}),
});
const accountOf = (r: Result) => {
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return (r.structuredContent as { result: { account: string } }).result.account;
};

describe('generated MCP module: credentials + scopeSecret', () => {
  it('the same key from two upstream accounts → 2 effects, each its own result; a retry replays its own', async () => {
    const alice = await caller('acct-alice');
    const bob = await caller('acct-bob');
    const before = api.effects;
    const key = 'module-shared-key-000001';
    expect(accountOf(await call(alice, 'createMessage', message(key)))).toBe('Bearer acct-alice');
    expect(accountOf(await call(bob, 'createMessage', message(key)))).toBe('Bearer acct-bob');
    expect(api.effects - before).toBe(2);
    const again = await call(alice, 'createMessage', message(key));
    expect(again.structuredContent).toMatchObject({ was_replay: true, result: { account: 'Bearer acct-alice' } });
    expect(api.effects - before).toBe(2);
  });

  it('the same host intent from two upstream accounts → 2 effects', async () => {
    const alice = await caller('acct-alice');
    const bob = await caller('acct-bob');
    const before = api.effects;
    const send = (c: Client) =>
      c.callTool({
        name: 'createMessage',
        arguments: message(),
        _meta: { [INTENT_META]: { thread: 'host-thread-7', turn: 2 } },
      }) as Promise<Result>;
    expect([accountOf(await send(alice)), accountOf(await send(bob))]).toEqual([
      'Bearer acct-alice',
      'Bearer acct-bob',
    ]);
    expect(api.effects - before).toBe(2);
  });
});

describe('tool runtime: ctx.credentials', () => {
  const bindingsOf = async () => {
    const generated = await generateModules('notes-scope-runtime', 'notes.json', NOTES_SPEC);
    const mod = (await import(generated.paths.get('handlers/notes.tools.gen.ts') as string)) as {
      notesToolBindings: Parameters<typeof createToolRuntime>[0]['bindings'];
    };
    return mod.notesToolBindings;
  };
  const args = (key: string) => ({ AccountSid: ACCOUNT, ...message(key) });

  it('one subject on two upstream accounts → 2 effects; without a scopeSecret the call is refused, not sent', async () => {
    const bindings = await bindingsOf();
    const tools = createToolRuntime({ bindings, baseUrl: api.url, store, scopeSecret: SECRET });
    const before = api.effects;
    const asAlice = { format: 'mcp' as const, scope: 'sub:alice' };
    const one = await tools.call('createMessage', args('runtime-key-0000001'), {
      ...asAlice,
      credentials: { bearerAuth: 'acct-one' },
    });
    const two = await tools.call('createMessage', args('runtime-key-0000001'), {
      ...asAlice,
      credentials: { bearerAuth: 'acct-two' },
    });
    expect([one, two]).toMatchObject([
      { ok: true, was_replay: false, result: { account: 'Bearer acct-one' } },
      { ok: true, was_replay: false, result: { account: 'Bearer acct-two' } },
    ]);
    expect(api.effects - before).toBe(2);

    const unkeyed = createToolRuntime({ bindings, baseUrl: api.url, store });
    const refused = await unkeyed.call('createMessage', args('runtime-key-0000002'), {
      ...asAlice,
      credentials: { bearerAuth: 'acct-one' },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'idempotency_scope_unknown', executed: 'no' } });
    expect(api.effects - before).toBe(2);
    expect(() => createToolRuntime({ bindings, baseUrl: api.url, store, scopeSecret: 'short' })).toThrow(
      /scopeSecret has 5 bytes; at least 32/,
    );
  });

  it('a caller with no credential of its own keeps the subject scope (rows from before stay valid)', async () => {
    const bindings = await bindingsOf();
    const tools = createToolRuntime({
      bindings,
      baseUrl: api.url,
      store,
      scopeSecret: SECRET,
      auth: { bearerAuth: 'srv' },
    });
    const before = api.effects;
    const ctx = { format: 'mcp' as const, scope: 'sub:carol' };
    await tools.call('createMessage', args('runtime-key-0000003'), ctx);
    const again = await tools.call('createMessage', args('runtime-key-0000003'), { ...ctx, credentials: {} });
    expect(again).toMatchObject({ ok: true, was_replay: true, result: { account: 'Bearer srv' } });
    expect(api.effects - before).toBe(1);
  });
});

describe('generated MCP module without a caller credential', () => {
  it('a call with no header and no server credential is sent without one, under the subject scope', async () => {
    const c = await httpClient(url);
    clients.push(c);
    const r = await call(c, 'createMessage', message('module-no-header-key-01'));
    // No credential of its own: the subject scope ('' without auth); the API sees no Authorization header.
    expect(errorOf(r)).toBeUndefined();
    expect(api.requests.at(-1)?.headers.authorization).toBeUndefined();
  });
});

describe('withIdempotency: credentials + scopeSecret', () => {
  type Extra = {
    authInfo?: { token: string; clientId: string; scopes: string[]; extra?: Record<string, unknown> };
    upstream?: string;
  };
  const as = (upstream: string): Extra => ({
    authInfo: { token: 't', clientId: 'app', scopes: [], extra: { sub: 'alice' } },
    upstream,
  });
  function counted(scopeSecret?: string) {
    const sent: string[] = [];
    const tool = withIdempotency(
      async (_args: Record<string, unknown>, extra: Extra) => {
        sent.push(extra.upstream ?? '');
        return { content: [{ type: 'text' as const, text: `sent as ${extra.upstream}` }] };
      },
      {
        store,
        operation: 'tool:send_as',
        credentials: (extra: Extra) => ({ api: extra.upstream }),
        ...(scopeSecret !== undefined ? { scopeSecret } : {}),
      },
    );
    return { tool, sent };
  }

  it('one subject, two upstream accounts, one key → 2 handler runs, each answered with its own', async () => {
    const { tool, sent } = counted(SECRET);
    const args = { text: 'x', idempotency_key: 'middleware-shared-key-01' };
    const one = await tool(args, as('acct-one'));
    const two = await tool(args, as('acct-two'));
    expect(sent).toEqual(['acct-one', 'acct-two']);
    expect([one.content, two.content]).toEqual([
      [{ type: 'text', text: 'sent as acct-one' }],
      [{ type: 'text', text: 'sent as acct-two' }],
    ]);
    expect((await tool(args, as('acct-one'))).content).toEqual(one.content);
    expect(sent).toHaveLength(2);
  });

  it('credentials without a scopeSecret → idempotency_scope_unknown, the handler never runs', async () => {
    const { tool, sent } = counted();
    const r = await tool({ text: 'x', idempotency_key: 'middleware-no-secret-01' }, as('acct-one'));
    expect(r.isError).toBe(true);
    expect(r._meta?.[ERROR_META]).toMatchObject({ code: 'idempotency_scope_unknown' });
    expect(sent).toEqual([]);
  });
});
