/** withIdempotency keyed by the host's `_meta` intent, through the real SDK client over InMemoryTransport. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_META, REPLAY_META } from '../../../packages/runtime/src/mcp/index.js';
import { INTENT_META, KEY_META, serveStdioFromEnv } from '../../../packages/runtime/src/mcp/server.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { createFixtureServer } from './fixture-server.js';
import { migratedSqliteFile } from './sqlite-db.js';

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(keySource?: 'model' | 'intent') {
  const store = createSqliteStore({ filename: migratedSqliteFile('idemgen-mw-intent').file });
  const effects: Record<string, unknown>[] = [];
  const server = createFixtureServer({
    store,
    recordEffect: (a) => effects.push(a),
    ...(keySource ? { keySource } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'host', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  open.push(client);
  return { client, effects };
}

const send = (c: Client, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  c.callTool({ name: 'send_message', arguments: args, ...(meta ? { _meta: meta } : {}) });
const turn = (n: number) => ({ [INTENT_META]: { thread: 'th-1', turn: n } });
const codeOf = (r: Awaited<ReturnType<typeof send>>) => (r._meta?.[ERROR_META] as { code?: string } | undefined)?.code;

describe('withIdempotency and the host intent', () => {
  it('same turn twice with fresh model keys → 1 effect, the handler sees one derived key; a new turn → 2', async () => {
    const { client, effects } = await connect();
    const msg = { channel: 'ops', text: 'deploy done' };
    await send(client, { ...msg, idempotency_key: 'model-fresh-key-000001' }, turn(1));
    const again = await send(client, { ...msg, idempotency_key: 'model-fresh-key-000002' }, turn(1));
    expect(again._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
    expect(effects).toHaveLength(1);
    expect(effects[0]?.idempotency_key).toMatch(/^[0-9a-f]{64}$/);
    await send(client, msg, turn(2));
    expect(effects).toHaveLength(2);
    await send(client, msg, { [KEY_META]: 'host-key-1' });
    await send(client, msg, { [KEY_META]: 'host-key-1' });
    expect(effects).toHaveLength(3);
  });

  it('keySource intent: no intent → intent_missing and no effect; a malformed one → intent_invalid', async () => {
    const { client, effects } = await connect('intent');
    const missing = await send(client, { channel: 'ops', text: 'x', idempotency_key: 'model-key-0000000001' });
    expect(missing.isError).toBe(true);
    expect(codeOf(missing)).toBe('intent_missing');
    expect(JSON.stringify(missing.content)).toContain('io.idemgen/intent');
    const bad = await send(client, { channel: 'ops', text: 'x' }, { [INTENT_META]: 'turn-1' });
    expect(codeOf(bad)).toBe('intent_invalid');
    expect(effects).toHaveLength(0);
    const ok = await send(client, { channel: 'ops', text: 'x' }, turn(7));
    expect(ok.isError).toBeFalsy();
    expect(effects).toHaveLength(1);
  });
});

it('serveStdioFromEnv refuses an unknown IDEMGEN_KEY_SOURCE before it opens a store or registers a tool', async () => {
  let registered = false;
  const register = () => {
    registered = true;
  };
  const module = { name: 'x', version: '1', authEnv: {}, register };
  await expect(serveStdioFromEnv(module, { IDEMGEN_KEY_SOURCE: 'turn' })).rejects.toThrow(
    'IDEMGEN_KEY_SOURCE="turn": expected model or intent',
  );
  expect(registered).toBe(false);
});
