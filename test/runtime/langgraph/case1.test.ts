import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import type { DedupStore } from '../../../packages/runtime/src/store/types.js';
import { buildCase1Graph } from './support/case1-graph.js';
import type { FaultServer } from '../../helpers/fault-server.js';
import { startMailProvider } from './support/mail-provider.js';
import { freshDir, migratedSqliteFile } from './support/sqlite-file.js';

/** SOP Case 1 in one process: the approval gate and the state-slot key, on real LangGraph + SQLite. */
let server: FaultServer;
let store: DedupStore;
let graph: ReturnType<typeof buildCase1Graph>;

beforeAll(async () => {
  server = await startMailProvider();
  store = createSqliteStore({ filename: migratedSqliteFile(freshDir('case1-inproc')) });
  graph = buildCase1Graph({ store, providerUrl: server.url, checkpointer: SqliteSaver.fromConnString(':memory:') });
});
afterAll(async () => {
  await store.close();
  await server.close();
});

const ticket = { from: 'bob@example.com', text: 'Where is my invoice?' };

describe('SOP Case 1 (classify → propose → approve → send)', () => {
  it('persists the send key with the proposal, before the interrupt, and sends once on approval', async () => {
    const cfg = { configurable: { thread_id: randomUUID() } };
    const paused = await graph.invoke({ ticket }, cfg);
    const key = paused.send_email_idempotency_key;
    expect(key).toMatch(/^lg_[0-9a-f]{64}$/);
    expect((await graph.getState(cfg)).values.send_email_idempotency_key).toBe(key);
    const before = server.received.length;

    const done = await graph.invoke(new Command({ resume: 'approve' }), cfg);
    expect(done.sent).toEqual({ messageId: `msg-${before + 1}`, wasReplay: false });
    expect(server.received.length).toBe(before + 1);
    expect(await store.get({ scope: '', key: key! })).toMatchObject({
      operation: 'tool:send_email',
      status: 'completed',
    });
  });

  it('sends nothing when the reviewer rejects', async () => {
    const cfg = { configurable: { thread_id: randomUUID() } };
    await graph.invoke({ ticket }, cfg);
    const before = server.received.length;
    const done = await graph.invoke(new Command({ resume: 'reject' }), cfg);
    expect(done.sent).toBeNull();
    expect(server.received.length).toBe(before);
  });

  it('gives the same ticket in a new thread its own key and its own message (SOP Case 2)', async () => {
    const keys: string[] = [];
    const before = server.received.length;
    for (let i = 0; i < 2; i++) {
      const cfg = { configurable: { thread_id: randomUUID() } };
      keys.push((await graph.invoke({ ticket }, cfg)).send_email_idempotency_key!);
      await graph.invoke(new Command({ resume: 'approve' }), cfg);
    }
    expect(keys[0]).not.toBe(keys[1]);
    expect(server.received.length).toBe(before + 2);
  });
});
