import { describe, expect, it } from 'vitest';
import { Annotation, Command, END, MemorySaver, START, StateGraph, interrupt } from '@langchain/langgraph';
import { KeySourceError, nodeIdempotencyKey, type NodeConfig } from '../../../packages/runtime/src/langgraph/index.js';

/**
 * What in a node's config is stable across resume of the same task and new across loop iterations
 * and threads — proven on the real LangGraph runtime rather than assumed from its source.
 */
const State = Annotation.Root({
  round: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
});

interface Seen {
  round: number;
  run: number;
  keys: string[];
}

function keyGraph(rounds: number, opts: { failFirstAttempt?: boolean } = {}) {
  const seen: Seen[] = [];
  let runs = 0;
  let failed = false;
  const graph = new StateGraph(State)
    .addNode(
      'act',
      (state, config) => {
        runs += 1;
        const keys = [
          nodeIdempotencyKey('send_email', { config: config as NodeConfig }),
          nodeIdempotencyKey('send_email', { config: config as NodeConfig }),
          nodeIdempotencyKey('charge', { config: config as NodeConfig }),
        ];
        seen.push({ round: state.round, run: runs, keys });
        if (opts.failFirstAttempt === true && !failed) {
          failed = true;
          throw new Error('transient failure after the keys were drawn');
        }
        interrupt({ approve: state.round });
        return { round: state.round + 1 };
      },
      { retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, logWarning: false } },
    )
    .addEdge(START, 'act')
    .addConditionalEdges('act', (s) => (s.round < rounds ? 'act' : END))
    .compile({ checkpointer: new MemorySaver() });
  return { graph, seen };
}

describe('nodeIdempotencyKey', () => {
  it('is the same on every re-run of an interrupted task and differs per call site', async () => {
    const { graph, seen } = keyGraph(1);
    const cfg = { configurable: { thread_id: 'resume-1' } };
    await graph.invoke({ round: 0 }, cfg);
    await graph.invoke(new Command({ resume: 'ok' }), cfg);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.keys).toEqual(seen[0]!.keys);
    // two calls of one operation and a call of another: three different keys
    expect(new Set(seen[0]!.keys).size).toBe(3);
    expect(seen[0]!.keys[0]).toMatch(/^lg_[0-9a-f]{64}$/);
  });

  it('is the same on a retry attempt of the task (the call counter restarts per attempt)', async () => {
    const { graph, seen } = keyGraph(1, { failFirstAttempt: true });
    const cfg = { configurable: { thread_id: 'retry-1' } };
    await graph.invoke({ round: 0 }, cfg);
    await graph.invoke(new Command({ resume: 'ok' }), cfg);
    expect(seen).toHaveLength(3);
    expect(seen[1]!.keys).toEqual(seen[0]!.keys);
    expect(seen[2]!.keys).toEqual(seen[0]!.keys);
  });

  it('is new for each loop iteration in one thread and for each thread', async () => {
    const { graph, seen } = keyGraph(2);
    const t1 = { configurable: { thread_id: 'loop-1' } };
    await graph.invoke({ round: 0 }, t1);
    await graph.invoke(new Command({ resume: 'ok' }), t1); // round 0 completes, round 1 interrupts
    await graph.invoke(new Command({ resume: 'ok' }), t1); // round 1 completes
    const t2 = { configurable: { thread_id: 'loop-2' } };
    await graph.invoke({ round: 0 }, t2);
    const firstKey = (round: number, from: number) => seen.slice(from).find((s) => s.round === round)!.keys[0];
    const r0 = firstKey(0, 0);
    const r1 = firstKey(1, 0);
    const otherThread = seen[seen.length - 1]!.keys[0];
    expect(seen.filter((s) => s.round === 1).map((s) => s.keys[0])).toEqual([r1, r1]);
    expect(new Set([r0, r1, otherThread]).size).toBe(3);
  });

  it('is new when the thread is replayed from an earlier checkpoint (time travel re-executes)', async () => {
    const { graph, seen } = keyGraph(1);
    const cfg = { configurable: { thread_id: 'time-travel' } };
    await graph.invoke({ round: 0 }, cfg);
    await graph.invoke(new Command({ resume: 'ok' }), cfg);
    let planning: { configurable?: Record<string, unknown> } | undefined;
    for await (const snapshot of graph.getStateHistory(cfg)) {
      if (snapshot.next.includes('act')) planning = snapshot.config;
    }
    await graph.invoke(null, planning);
    expect(seen).toHaveLength(3);
    expect(seen[2]!.keys[0]).not.toBe(seen[0]!.keys[0]);
  });

  it('refuses to derive a key outside a checkpointed node', async () => {
    expect(() => nodeIdempotencyKey('send_email', { config: {} })).toThrow(KeySourceError);
    let thrown: unknown;
    const graph = new StateGraph(State)
      .addNode('act', (_s, config) => {
        try {
          nodeIdempotencyKey('send_email', { config: config as NodeConfig });
        } catch (err) {
          thrown = err;
        }
        return {};
      })
      .addEdge(START, 'act')
      .compile();
    await graph.invoke({ round: 0 });
    expect(thrown).toBeInstanceOf(KeySourceError);
    expect(String(thrown)).toMatch(/thread_id/);
  });
});
