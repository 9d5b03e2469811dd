/**
 * Case 2's soft guard at the MCP boundary, through the real SDK client and server (InMemoryTransport):
 * a new key for the same recipient within the window runs, and the text the model reads says that a
 * similar call completed seconds ago under which key; a retry of the same key is a plain replay.
 */
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DedupStore } from '../../../packages/runtime/src/index.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { RECENT_SIMILAR_META, REPLAY_META, withIdempotency } from '../../../packages/runtime/src/mcp/index.js';
import { migratedSqliteFile } from './sqlite-db.js';

let clock = 1_800_000_000_000;
let sent = 0;
let store: DedupStore;
let dir: string;
let client: Client;

beforeAll(async () => {
  const db = migratedSqliteFile('idemgen-mcp-similar');
  dir = db.dir;
  store = createSqliteStore({ filename: db.file });
  const sendSms = withIdempotency(
    async (args: Record<string, unknown>): Promise<CallToolResult> => {
      sent += 1;
      return { content: [{ type: 'text', text: `sent #${sent} to ${String(args.to)}` }] };
    },
    {
      store,
      operation: 'tool:send_sms',
      now: () => clock,
      recentSimilar: { windowSeconds: 60, select: (a) => ({ to: (a as { to: unknown }).to }) },
    },
  );
  const server = new Server({ name: 'similar', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) =>
    sendSms((req.params.arguments ?? {}) as Record<string, unknown>, extra),
  );
  const [c, s] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'agent', version: '1.0.0' });
  await Promise.all([server.connect(s), client.connect(c)]);
});
afterAll(async () => {
  await client.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (key: string, to: string, text: string) =>
  client.callTool({ name: 'send_sms', arguments: { to, text, idempotency_key: key } });
const texts = (r: Awaited<ReturnType<typeof call>>) => (r.content as { text: string }[]).map((c) => c.text);

describe('recentSimilar in withIdempotency', () => {
  it('a new key for the same recipient 20 s later runs, and the model is told about the first', async () => {
    const first = await call('sms-mcp-intent-000001', '+15550001', 'on my way');
    expect(texts(first)).toEqual(['sent #1 to +15550001']);
    expect(first._meta?.[RECENT_SIMILAR_META]).toBeUndefined();

    clock += 20_000;
    const second = await call('sms-mcp-intent-000002', '+15550001', 'on my way!');
    expect(sent).toBe(2); // a hint, never a block
    const [result, note] = texts(second);
    expect(result).toBe('sent #2 to +15550001');
    expect(note).toMatch(
      /^Note: a similar call .* completed 20 s ago with idempotency_key "sms-mcp-intent-000001"; this one ran as a new request\./,
    );
    expect(note).toMatch(/do not call it again/);
    expect(second._meta?.[RECENT_SIMILAR_META]).toEqual({
      called_at: new Date(clock - 20_000).toISOString(),
      key: 'sms-mcp-intent-000001',
    });
  });

  it('a retry of the same key is a replay of the stored result, with no note', async () => {
    const again = await call('sms-mcp-intent-000002', '+15550001', 'on my way!');
    expect(sent).toBe(2);
    expect(texts(again)).toEqual(['sent #2 to +15550001']);
    expect(again._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
    expect(again._meta?.[RECENT_SIMILAR_META]).toBeUndefined();
  });

  it('another recipient, or the same one after the window, gets no note', async () => {
    const other = await call('sms-mcp-intent-000003', '+15550002', 'on my way');
    expect(texts(other)).toHaveLength(1);
    clock += 61_000;
    const late = await call('sms-mcp-intent-000004', '+15550001', 'on my way');
    expect(sent).toBe(4);
    expect(texts(late)).toHaveLength(1);
    expect(late._meta?.[RECENT_SIMILAR_META]).toBeUndefined();
  });
});
