import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Annotation, Command, END, MemorySaver, START, StateGraph, interrupt } from '@langchain/langgraph';
import { IdempotencyConflictError } from '../../../packages/runtime/src/core/errors.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import type { DedupStore } from '../../../packages/runtime/src/store/types.js';
import { createIdempotency } from '../../../packages/runtime/src/core/idempotency.js';
import {
  KeySourceError,
  idempotentInNode,
  nodeKey,
  type NodeConfig,
} from '../../../packages/runtime/src/langgraph/index.js';
import type { FaultServer } from '../../helpers/fault-server.js';
import { sendMessage, startMailProvider } from './support/mail-provider.js';
import { freshDir, migratedSqliteFile } from './support/sqlite-file.js';

/**
 * SOP OP-6 on the real LangGraph runtime: the node body re-runs from the top on every resume, and the
 * side effect (a request to a real HTTP server) must still happen once per intent.
 */
const State = Annotation.Root({
  round: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  to: Annotation<string>({ reducer: (_a, b) => b, default: () => 'alice@example.com' }),
  email_key: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
});
type S = typeof State.State;

let server: FaultServer;
let store: DedupStore;
let wrappedSend: ReturnType<typeof wrap>;

/** A generated-client-like method wrapped once, at module level, as an application would. */
function wrap(dedup: DedupStore) {
  return idempotentInNode(sendMessage, { operation: 'tool:send_email', store: dedup, args: (_u, m) => m });
}

beforeAll(async () => {
  server = await startMailProvider();
  store = createSqliteStore({ filename: migratedSqliteFile(freshDir('in-node')) });
  wrappedSend = wrap(store);
});
afterAll(async () => {
  await store.close();
  await server.close();
});

const thread = (): { configurable: { thread_id: string } } => ({ configurable: { thread_id: randomUUID() } });
const sentTo = (marker: string): number => server.received.filter((m) => JSON.stringify(m).includes(marker)).length;

function graphOf(body: (s: S, config: NodeConfig) => Promise<Partial<S>>, rounds = 1) {
  return new StateGraph(State)
    .addNode('act', (s, config) => body(s, config as NodeConfig))
    .addEdge(START, 'act')
    .addConditionalEdges('act', (s) => (s.round < rounds ? 'act' : END))
    .compile({ checkpointer: new MemorySaver() });
}

describe('side effect then interrupt() in one node', () => {
  it('sends once across Command({resume}) with the wrapper, and reports the replay', async () => {
    const flags: boolean[] = [];
    const g = graphOf(async (s) => {
      // No config passed: found through LangGraph's getConfig() (AsyncLocalStorage).
      const out = await wrappedSend(server.url, { to: s.to, body: 'case-1 wrapped' });
      flags.push(out.wasReplay);
      interrupt('approve?');
      return { round: s.round + 1 };
    });
    const cfg = thread();
    await g.invoke({}, cfg);
    await g.invoke(new Command({ resume: 'ok' }), cfg);
    expect(sentTo('case-1 wrapped')).toBe(1);
    expect(flags).toEqual([false, true]);
  });

  it('sends twice without the wrapper (the failure the wrapper prevents)', async () => {
    const g = graphOf(async (s) => {
      await sendMessage(server.url, { to: s.to, body: 'case-1 raw' });
      interrupt('approve?');
      return { round: s.round + 1 };
    });
    const cfg = thread();
    await g.invoke({}, cfg);
    await g.invoke(new Command({ resume: 'ok' }), cfg);
    expect(sentTo('case-1 raw')).toBe(2);
  });

  it('sends twice with a uuid minted in the node and written into state before interrupt()', async () => {
    // The SOP's Python snippet, literally: the state write is never checkpointed (the node never returned).
    const g = graphOf(async (s, config) => {
      const key = s.email_key ?? randomUUID();
      s.email_key = key;
      const send = idempotentInNode(sendMessage, {
        operation: 'tool:send_email',
        store,
        key: () => key,
        args: (_u, m) => m,
      });
      await send.withConfig(config)(server.url, { to: s.to, body: 'case-1 naive uuid' });
      interrupt('approve?');
      return { round: s.round + 1, email_key: key };
    });
    const cfg = thread();
    await g.invoke({}, cfg);
    await g.invoke(new Command({ resume: 'ok' }), cfg);
    expect(sentTo('case-1 naive uuid')).toBe(2);
  });

  it('fails loudly when the re-run body computes different arguments (SOP Case 3), sending nothing more', async () => {
    let run = 0;
    const g = graphOf(async (s, config) => {
      run += 1;
      await wrappedSend.withConfig(config)(server.url, { to: s.to, body: `case-3 draft v${run}` });
      interrupt('approve?');
      return { round: s.round + 1 };
    });
    const cfg = thread();
    await g.invoke({}, cfg);
    await expect(g.invoke(new Command({ resume: 'ok' }), cfg)).rejects.toBeInstanceOf(IdempotencyConflictError);
    expect(sentTo('case-3 draft')).toBe(1);
  });
});

describe('two interrupts in one node, resumed twice', () => {
  it('runs the body three times and each effect once', async () => {
    let bodies = 0;
    const g = graphOf(async (s, config) => {
      bodies += 1;
      await wrappedSend.withConfig(config)(server.url, { to: s.to, body: 'two-interrupts first' });
      interrupt('first approval');
      await wrappedSend.withConfig(config)(server.url, { to: s.to, body: 'two-interrupts second' });
      interrupt('second approval');
      return { round: s.round + 1 };
    });
    const cfg = thread();
    await g.invoke({}, cfg);
    await g.invoke(new Command({ resume: 'yes' }), cfg);
    const final = await g.invoke(new Command({ resume: 'yes' }), cfg);
    expect(final.round).toBe(1);
    expect(bodies).toBe(3);
    expect(sentTo('two-interrupts first')).toBe(1);
    expect(sentTo('two-interrupts second')).toBe(1);
  });
});

describe('new intents are not swallowed (SOP Case 2)', () => {
  const body = (marker: string) => async (s: S, config: NodeConfig) => {
    await wrappedSend.withConfig(config)(server.url, { to: s.to, body: marker });
    interrupt('approve?');
    return { round: s.round + 1 };
  };

  it('two threads with the same arguments: two sends', async () => {
    const g = graphOf(body('same text, two threads'));
    for (const cfg of [thread(), thread()]) {
      await g.invoke({}, cfg);
      await g.invoke(new Command({ resume: 'ok' }), cfg);
    }
    expect(sentTo('same text, two threads')).toBe(2);
  });

  it('two loop iterations in one thread, each resumed: two sends, not four', async () => {
    const g = graphOf(body('same text, two iterations'), 2);
    const cfg = thread();
    await g.invoke({}, cfg);
    await g.invoke(new Command({ resume: 'ok' }), cfg); // iteration 1 done, iteration 2 interrupts
    const final = await g.invoke(new Command({ resume: 'ok' }), cfg);
    expect(final.round).toBe(2);
    expect(sentTo('same text, two iterations')).toBe(2);
  });
});

describe('the key is only used once the checkpoint it derives from is persisted', () => {
  const sendThenInterrupt = (marker: string, requireDurableCheckpoint: boolean) => {
    const send = idempotentInNode(sendMessage, {
      operation: 'tool:send_email',
      store,
      args: (_u, m) => m,
      requireDurableCheckpoint,
      durableWaitMs: 100,
    });
    return async (s: S, config: NodeConfig) => {
      await send.withConfig(config)(server.url, { to: s.to, body: marker });
      interrupt('approve?');
      return { round: s.round + 1 };
    };
  };

  it("fails closed under durability 'exit' (a crash would re-plan the task under a new key), sending nothing", async () => {
    const g = graphOf(sendThenInterrupt('durability exit', true));
    const cfg = { ...thread(), durability: 'exit' as const };
    await expect(g.invoke({}, cfg)).rejects.toThrow(KeySourceError);
    await expect(g.invoke({}, { ...thread(), durability: 'exit' as const })).rejects.toThrow(
      /not persisted .*durability 'exit'/,
    );
    expect(sentTo('durability exit')).toBe(0);
  });

  it("with the guard waived, 'exit' still covers interrupt/resume: one send", async () => {
    const g = graphOf(sendThenInterrupt('durability exit, waived', false));
    const cfg = { ...thread(), durability: 'exit' as const };
    await g.invoke({}, cfg);
    await g.invoke(new Command({ resume: 'ok' }), cfg);
    expect(sentTo('durability exit, waived')).toBe(1);
  });

  it("passes at once under 'sync' and after the write lands under 'async'", async () => {
    for (const durability of ['sync', 'async'] as const) {
      const g = graphOf(sendThenInterrupt(`durability ${durability}`, true));
      const cfg = { ...thread(), durability };
      await g.invoke({}, cfg);
      await g.invoke(new Command({ resume: 'ok' }), cfg);
      expect(sentTo(`durability ${durability}`)).toBe(1);
    }
  });
});

describe('nodeKey for a callee that runs its own dedup (a generated client method)', () => {
  it('hands the callee a key that is the same on resume: one send', async () => {
    const idem = createIdempotency({ store });
    // What a generated OP-2/fail-closed method does with `{ key }`: run the call through the store.
    const clientSend = (message: { to: string; body: string }, options: { key: string }) =>
      idem.run({ operation: 'tool:send_email', key: options.key, args: message, mechanism: 'fail-closed' }, () =>
        sendMessage(server.url, message),
      );
    const g = graphOf(async (s) => {
      await clientSend({ to: s.to, body: 'client with node key' }, { key: await nodeKey('tool:send_email') });
      interrupt('approve?');
      return { round: s.round + 1 };
    });
    const cfg = thread();
    await g.invoke({}, cfg);
    await g.invoke(new Command({ resume: 'ok' }), cfg);
    expect(sentTo('client with node key')).toBe(1);
  });
});
