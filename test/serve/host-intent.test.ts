/**
 * The host's intent over MCP: `_meta["io.idemgen/intent"]` / `_meta["io.idemgen/key"]` on
 * `tools/call` keys a write, with the real SDK client against the counting fault server — through the
 * generated module (`registerNotesTools` → `registerToolRuntime`) over InMemoryTransport, its own stdio
 * `main()` with `IDEMGEN_KEY_SOURCE=intent`, and `idemgen serve --key-source intent` over stdio.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateUserConfig } from '../../src/config/validate.js';
import { INTENT_META, KEY_META } from '../../packages/runtime/src/mcp/server.js';
import { createSqliteStore } from '../../packages/runtime/src/store/sqlite.js';
import { runCli } from '../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { errorOf, httpClient, stdioClient, type Result } from '../emit/mcp/client.js';
import { generateModules } from '../emit/mcp/generate-modules.js';
import { ACCOUNT, NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { migratedSqliteFile } from '../runtime/mcp/sqlite-db.js';
import { spawnServe } from './spawn-serve.js';

const TOOL = 'createMessage';
const CLI = 'test/helpers/idemgen-src.ts';
let generated: Awaited<ReturnType<typeof generateModules>>;
let api: FaultServer | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  generated = await generateModules('notes-intent', 'notes.json', NOTES_SPEC);
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await api?.close();
  api = undefined;
});

const message = (to = '+15550100') => ({ body: { to, body: 'hello' } });

/** A tools/call with the host's `_meta` (what an MCP host adds; the model never sees it). */
const callWith = (c: Client, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Result> =>
  c.callTool({ name: TOOL, arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<Result>;

const turn = (thread: string, n: number) => ({ [INTENT_META]: { thread, turn: n } });

async function inMemory(keySource?: 'model' | 'intent', dynamic = false): Promise<Client> {
  const mod = (await import(generated.paths.get('mcp/notes.server.gen.ts') as string)) as {
    registerNotesTools: (server: McpServer, options: Record<string, unknown>) => void;
  };
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  mod.registerNotesTools(server, {
    store: createSqliteStore({ filename: migratedSqliteFile('idemgen-intent').file }),
    baseUrl: api?.url,
    auth: { bearerAuth: 'api-token' },
    serverArguments: { AccountSid: ACCOUNT },
    ...(keySource ? { keySource } : {}),
    dynamic,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'host', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

describe('generated module, default key source: the host intent keys a write when present', () => {
  it('same turn twice with a fresh model key each time → 1 effect; a new turn → 2', async () => {
    api = await startFaultServer();
    const c = await inMemory();
    const first = await callWith(c, { ...message(), idempotency_key: 'model-minted-key-0001' }, turn('t-81', 4));
    const again = await callWith(c, { ...message(), idempotency_key: 'model-minted-key-0002' }, turn('t-81', 4));
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    expect(again.structuredContent).toMatchObject({ was_replay: true, result: { effect: 1 } });
    expect(api.effects).toBe(1);
    const next = await callWith(c, message(), turn('t-81', 5));
    expect(next.structuredContent).toMatchObject({ was_replay: false, result: { effect: 2 } });
    expect(api.effects).toBe(2);
  });

  it('the intent is canonical (key order) and two different writes of one turn are two effects', async () => {
    api = await startFaultServer();
    const c = await inMemory();
    await callWith(c, message('+15550100'), { [INTENT_META]: { thread: 'a', turn: 1 } });
    const reordered = await callWith(c, message('+15550100'), { [INTENT_META]: { turn: 1, thread: 'a' } });
    expect(reordered.structuredContent).toMatchObject({ was_replay: true });
    const other = await callWith(c, message('+15550111'), { [INTENT_META]: { thread: 'a', turn: 1 } });
    expect(other.structuredContent).toMatchObject({ was_replay: false, result: { effect: 2 } });
    expect(api.effects).toBe(2);
  });

  it('_meta["io.idemgen/key"] keys a write like an intent; without any _meta the model key still works', async () => {
    api = await startFaultServer();
    const c = await inMemory();
    await callWith(c, message(), { [KEY_META]: 'host-turn-17' });
    const again = await callWith(c, message(), { [KEY_META]: 'host-turn-17' });
    expect(again.structuredContent).toMatchObject({ was_replay: true });
    expect(api.effects).toBe(1);
    const model = { ...message(), idempotency_key: 'model-only-key-0003' };
    await callWith(c, model);
    expect((await callWith(c, model)).structuredContent).toMatchObject({ was_replay: true });
    expect(api.effects).toBe(2);
    const none = await callWith(c, message());
    expect(errorOf(none)).toMatchObject({ code: 'invalid_arguments', executed: 'no' });
    expect(api.effects).toBe(2);
  });

  it.each([
    ['an array', [1, 2], /must be an object of string or number values/],
    ['a nested object', { thread: { id: 1 } }, /"thread" must be a string or a number/],
    ['an empty object', {}, /is empty/],
    ['an oversized value', { thread: 'x'.repeat(300) }, /1–256 characters/],
    ['too many entries', Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i])), /at most 16/],
  ])('a malformed intent (%s) → a clear tool error, 0 effects', async (_what, intent, pattern) => {
    api = await startFaultServer();
    const c = await inMemory();
    const r = await callWith(c, { ...message(), idempotency_key: 'model-key-000000001' }, { [INTENT_META]: intent });
    expect(r.isError).toBe(true);
    expect(errorOf(r)).toMatchObject({ code: 'intent_invalid', executed: 'no' });
    const text = (r.content as { text: string }[])[0]?.text ?? '';
    expect(text).toMatch(pattern);
    expect(text).toContain('_meta["io.idemgen/intent"]');
    expect(api.effects).toBe(0);
  });

  it('a read ignores the host intent', async () => {
    api = await startFaultServer();
    const c = await inMemory();
    const r = (await c.callTool({ name: 'listMessages', arguments: {}, _meta: { [INTENT_META]: [] } })) as Result;
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  });
});

describe('generated module, keySource intent', () => {
  it('lists no idempotency_key; refuses a write without the intent (0 effects); same turn → 1, new turn → 2', async () => {
    api = await startFaultServer();
    const c = await inMemory('intent');
    const { tools } = await c.listTools();
    const create = tools.find((t) => t.name === TOOL);
    expect(Object.keys(create?.inputSchema.properties ?? {})).toEqual(['body']);
    expect(create?.inputSchema.required).toEqual(['body']);
    const refused = await callWith(c, { ...message(), idempotency_key: 'model-key-refused-01' });
    expect(refused.isError).toBe(true);
    expect(errorOf(refused)).toMatchObject({ code: 'intent_missing', executed: 'no' });
    expect(JSON.stringify(refused.content)).toContain('_meta[\\"io.idemgen/intent\\"]');
    expect(api.effects).toBe(0);
    await callWith(c, message(), turn('t-1', 1));
    expect((await callWith(c, message(), turn('t-1', 1))).structuredContent).toMatchObject({ was_replay: true });
    expect(api.effects).toBe(1);
    await callWith(c, message(), turn('t-1', 2));
    expect(api.effects).toBe(2);
  });

  it('dynamic mode: describe_tool omits the key, invoke_tool is keyed by the request intent', async () => {
    api = await startFaultServer();
    const c = await inMemory('intent', true);
    const { tools } = await c.listTools();
    expect(tools.find((t) => t.name === 'invoke_tool')?.description).not.toContain('idempotency_key');
    const described = (await c.callTool({ name: 'describe_tool', arguments: { name: TOOL } })) as Result;
    const schema = described.structuredContent?.inputSchema as { properties?: object } | undefined;
    expect(Object.keys(schema?.properties ?? {})).toEqual(['body']);
    const invoke = (meta?: Record<string, unknown>) =>
      c.callTool({
        name: 'invoke_tool',
        arguments: { name: TOOL, arguments: message() },
        ...(meta ? { _meta: meta } : {}),
      }) as Promise<Result>;
    expect(errorOf(await invoke())).toMatchObject({ code: 'intent_missing' });
    await invoke(turn('t-d', 1));
    expect((await invoke(turn('t-d', 1))).structuredContent).toMatchObject({ was_replay: true });
    expect(api.effects).toBe(1);
  });

  it('config tools.keySource: intent makes intent the generated default', async () => {
    const { texts } = await generateModules('notes-intent-config', 'notes.json', NOTES_SPEC, {
      tools: { keySource: 'intent' },
    });
    expect(texts.get('mcp/notes.server.gen.ts')).toContain('keySource: keySource ?? "intent"');
    expect(generated.texts.get('mcp/notes.server.gen.ts')).not.toContain('?? "intent"');
  });
});

/** Same turn twice → 1, new turn → 2, no intent → refused with 0 effects, and the listing without the key. */
async function intentContract(c: Client, server: FaultServer): Promise<void> {
  const { tools } = await c.listTools();
  const create = tools.find((t) => t.name === TOOL);
  expect(create).toBeDefined();
  expect(Object.keys(create?.inputSchema.properties ?? {})).not.toContain('idempotency_key');
  const refused = await callWith(c, message());
  expect(errorOf(refused)).toMatchObject({ code: 'intent_missing', executed: 'no' });
  expect(server.effects).toBe(0);
  const first = await callWith(c, message(), turn('t-9', 1));
  expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
  expect((await callWith(c, message(), turn('t-9', 1))).structuredContent).toMatchObject({ was_replay: true });
  expect(server.effects).toBe(1);
  expect((await callWith(c, message(), turn('t-9', 2))).structuredContent).toMatchObject({ was_replay: false });
  expect(server.effects).toBe(2);
}

describe('over stdio', () => {
  it('the generated module run as a program with IDEMGEN_KEY_SOURCE=intent', async () => {
    api = await startFaultServer();
    const c = await stdioClient([generated.paths.get('mcp/notes.server.gen.ts') as string], {
      IDEMGEN_STORE: `sqlite:${migratedSqliteFile('idemgen-intent-stdio').file}`,
      IDEMGEN_BASE_URL: api.url,
      IDEMGEN_AUTH_BEARERAUTH: 'api-token',
      IDEMGEN_ARG_AccountSid: ACCOUNT,
      IDEMGEN_KEY_SOURCE: 'intent',
    });
    clients.push(c);
    await intentContract(c, api);
  });

  it('idemgen serve --key-source intent', async () => {
    api = await startFaultServer();
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-intent-serve-'));
    writeFileSync(join(dir, 'notes.json'), JSON.stringify(NOTES_SPEC));
    const c = await stdioClient(
      [
        CLI,
        'serve',
        join(dir, 'notes.json'),
        '--key-source',
        'intent',
        '--store',
        `sqlite:${join(dir, 'dedup.sqlite')}`,
        '--base-url',
        api.url,
        '--arg',
        `AccountSid=${ACCOUNT}`,
      ],
      { IDEMGEN_AUTH_BEARERAUTH: 'api-token' },
    );
    clients.push(c);
    await intentContract(c, api);
  });
});

describe('over Streamable HTTP', () => {
  it('serve --http --key-source intent: the intent is per user — the same turn of two users is two effects', async () => {
    api = await startFaultServer();
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-intent-http-'));
    writeFileSync(join(dir, 'notes.json'), JSON.stringify(NOTES_SPEC));
    const served = await spawnServe(
      [
        join(dir, 'notes.json'),
        '--http',
        '0',
        '--key-source',
        'intent',
        '--store',
        `sqlite:${join(dir, 'dedup.sqlite')}`,
        '--base-url',
        api.url,
        '--arg',
        `AccountSid=${ACCOUNT}`,
        '--token',
        'alice=alice-secret-0123456789',
        '--token',
        'bob=bob-secret-0123456789ab',
      ],
      { IDEMGEN_AUTH_BEARERAUTH: 'api-token' },
    );
    try {
      const alice = await httpClient(served.url, { authorization: 'Bearer alice-secret-0123456789' });
      clients.push(alice);
      await intentContract(alice, api);
      const bob = await httpClient(served.url, { authorization: 'Bearer bob-secret-0123456789ab' });
      clients.push(bob);
      const theirs = await callWith(bob, message(), turn('t-9', 1));
      expect(theirs.structuredContent).toMatchObject({ was_replay: false });
      expect(api.effects).toBe(3);
    } finally {
      for (const c of clients.splice(0)) await c.close();
      await served.stop();
    }
  });
});

describe('bad key-source settings', () => {
  it('config tools.keySource other than model/intent is an invalid_config diagnostic at its pointer', () => {
    const bad = validateUserConfig({ tools: { keySource: 'header' } }, 'idemgen.config.json');
    expect(bad.map((d) => [d.code, d.pointer])).toEqual([['invalid_config', '/tools/keySource']]);
    expect(validateUserConfig({ tools: { keySource: 'intent' } }, 'c.json')).toEqual([]);
  });

  it('serve --key-source with another value is a usage error (exit 2), not a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-intent-usage-'));
    writeFileSync(join(dir, 'notes.json'), JSON.stringify(NOTES_SPEC));
    const r = await runCli(['serve', 'notes.json', '--key-source', 'turn'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/key-source/);
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });
});
