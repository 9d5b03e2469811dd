/** withIdempotency through the real MCP SDK client and server over InMemoryTransport, SQLite-backed. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { DedupStore } from '../../../packages/runtime/src/index.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { REPLAY_META } from '../../../packages/runtime/src/mcp/index.js';
import { createFixtureServer } from './fixture-server.js';
import { migratedSqliteFile } from './sqlite-db.js';

interface Harness {
  client: Client;
  effects: Record<string, unknown>[];
  store: DedupStore;
}

const open: Harness[] = [];

async function connect(opts: { delayMs?: number; waitMs?: number } = {}): Promise<Harness> {
  const { file } = migratedSqliteFile('idemgen-mcp-mem');
  const store = createSqliteStore({ filename: file });
  const effects: Record<string, unknown>[] = [];
  const server = createFixtureServer({ store, recordEffect: (a) => effects.push(a), ...opts });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const h = { client, effects, store };
  open.push(h);
  return h;
}

afterEach(async () => {
  for (const h of open.splice(0)) await h.client.close();
});

const KEY = 'intent-7f3c2a9e-5b1d-4c6e-9a2f';
const send = (c: Client, args: Record<string, unknown>, timeout?: number) =>
  c.callTool({ name: 'send_message', arguments: args }, undefined, timeout === undefined ? undefined : { timeout });

describe('withIdempotency over InMemoryTransport', () => {
  it('serves the generated schema with a required idempotency_key', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'send_message');
    expect(tool?.inputSchema.required).toContain('idempotency_key');
    expect(tool?.annotations?.idempotentHint).toBe(true);
    expect(tools.find((t) => t.name === 'list_messages')?.inputSchema.properties).not.toHaveProperty('idempotency_key');
  });

  it('runs a side effect once for two calls with the same key and returns the identical result', async () => {
    const { client, effects } = await connect();
    const args = { channel: 'ops', text: 'deploy done', idempotency_key: KEY };
    const first = await send(client, args);
    const second = await send(client, args);
    expect(effects).toHaveLength(1);
    expect(second.content).toEqual(first.content);
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(first._meta?.[REPLAY_META]).toBeUndefined();
    expect(second._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
    const replay = second._meta?.[REPLAY_META] as { originalCalledAt: string } | undefined;
    expect(replay).toBeDefined();
    expect(Date.parse(replay?.originalCalledAt ?? '')).not.toBeNaN();
  });

  it('answers a key reused with different arguments with an isError conflict and no effect', async () => {
    const { client, effects } = await connect();
    await send(client, { channel: 'ops', text: 'one', idempotency_key: KEY });
    const res = await send(client, { channel: 'ops', text: 'two', idempotency_key: KEY });
    expect(res.isError).toBe(true);
    expect(JSON.stringify(res.content)).toContain('different arguments');
    expect(effects).toHaveLength(1);
  });

  it('rejects a call without a key, or with an invalid key, with isError and no effect', async () => {
    const { client, effects } = await connect();
    const missing = await send(client, { channel: 'ops', text: 'hi' });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain('Missing required argument idempotency_key');
    const short = await send(client, { channel: 'ops', text: 'hi', idempotency_key: 'abc' });
    expect(short.isError).toBe(true);
    expect(JSON.stringify(short.content)).toContain('Invalid idempotency_key');
    expect(effects).toHaveLength(0);
  });

  it('replays a stored isError outcome instead of running the tool again', async () => {
    const { client, effects } = await connect();
    const args = { channel: 'ops', text: 'fail', idempotency_key: KEY };
    const first = await send(client, args);
    const second = await send(client, args);
    expect(first.isError).toBe(true);
    expect(second.isError).toBe(true);
    expect(second.content).toEqual(first.content);
    expect(second._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
    expect(effects).toHaveLength(1);
  });

  it('answers an in-flight duplicate with an isError in-progress message', async () => {
    const { client, effects } = await connect({ delayMs: 800, waitMs: 100 });
    const args = { channel: 'ops', text: 'slow', idempotency_key: KEY };
    const first = send(client, args);
    await new Promise((r) => setTimeout(r, 100));
    const dup = await send(client, args);
    expect(dup.isError).toBe(true);
    expect(JSON.stringify(dup.content)).toContain('still in progress');
    expect((await first).isError).toBeFalsy();
    expect(effects).toHaveLength(1);
  });

  it('lets a client that timed out retry with the same key without a second effect', async () => {
    const { client, effects } = await connect({ delayMs: 600 });
    const args = { channel: 'ops', text: 'timeout', idempotency_key: KEY };
    await expect(send(client, args, 150)).rejects.toThrow(/timed out/i);
    const retry = await send(client, args);
    expect(retry.isError).toBeFalsy();
    expect(retry._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
    expect(effects).toHaveLength(1);
  });
});
