/**
 * The write test (docs/concepts.md#side-effects), checked against what agents actually did: the same (tool, args hash)
 * more than once in one user turn; and cross-turn near-duplicates (docs/concepts.md#repeated-intent) — the same tool and
 * arguments (the idempotency key aside) in different turns of one conversation within a window
 * (default 60 s). For each repeat: did our runtime absorb it (replay, conflict, in flight: nothing
 * reached the API) or did it reach the API (executed, unknown, or no runtime at all)?
 */
import type { ToolCall } from './read.js';

const ABSORBED = new Set(['replay', 'conflict', 'in_flight']);
const absorbed = (c: ToolCall): boolean => c.outcome !== null && ABSORBED.has(c.outcome);

interface DuplicateGroup {
  kind: 'same-turn' | 'cross-turn';
  conversation: string;
  turns: string[];
  tool: string;
  argsHash: string;
  calls: (ToolCall & { absorbed: boolean })[];
  /** Calls that reached the API; more than one means a possible duplicate side effect. */
  reachedApi: number;
  absorbedCount: number;
  /** For cross-turn groups: the largest gap between consecutive turns, ms. */
  gapMs?: number;
}

export interface TraceAudit {
  calls: number;
  uncomparable: number;
  groups: DuplicateGroup[];
}

function group(kind: DuplicateGroup['kind'], calls: ToolCall[], gapMs?: number): DuplicateGroup {
  const marked = calls.map((c) => ({ ...c, absorbed: absorbed(c) }));
  const first = calls[0] as ToolCall;
  return {
    kind,
    conversation: first.conversation,
    turns: [...new Set(calls.map((c) => c.turn))],
    tool: first.tool,
    argsHash: first.argsHash as string,
    calls: marked,
    reachedApi: marked.filter((c) => !c.absorbed).length,
    absorbedCount: marked.filter((c) => c.absorbed).length,
    ...(gapMs === undefined ? {} : { gapMs }),
  };
}

function bucket<K>(items: ToolCall[], keyOf: (c: ToolCall) => K): Map<K, ToolCall[]> {
  const out = new Map<K, ToolCall[]>();
  for (const c of items) {
    const k = keyOf(c);
    const list = out.get(k);
    if (list) list.push(c);
    else out.set(k, [c]);
  }
  return out;
}

export function findDuplicates(all: ToolCall[], opts: { windowMs?: number } = {}): TraceAudit {
  const windowMs = opts.windowMs ?? 60_000;
  const calls = all.filter((c) => c.argsHash !== null).sort((a, b) => a.time - b.time);
  const groups: DuplicateGroup[] = [];
  const sameIntent = bucket(calls, (c) => JSON.stringify([c.conversation, c.tool, c.argsHash]));
  for (const intent of sameIntent.values()) {
    const byTurn = bucket(intent, (c) => c.turn);
    for (const turn of byTurn.values()) if (turn.length > 1) groups.push(group('same-turn', turn));
    // Cross-turn: the first call of each turn, chained while consecutive turns are within the window.
    const firsts = [...byTurn.values()].map((t) => t[0] as ToolCall).sort((a, b) => a.time - b.time);
    let chain: ToolCall[] = [];
    let gap = 0;
    const flush = () => {
      if (chain.length > 1) groups.push(group('cross-turn', chain, gap));
      chain = [];
      gap = 0;
    };
    for (const c of firsts) {
      const prev = chain[chain.length - 1];
      if (prev && c.time - prev.time > windowMs) flush();
      if (chain.length > 0) gap = Math.max(gap, c.time - (chain[chain.length - 1] as ToolCall).time);
      chain.push(c);
    }
    flush();
  }
  groups.sort((a, b) => (a.calls[0] as ToolCall).time - (b.calls[0] as ToolCall).time);
  return { calls: all.length, uncomparable: all.length - calls.length, groups };
}
