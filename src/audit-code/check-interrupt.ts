/**
 * side_effect_before_interrupt: in a function that calls LangGraph's `interrupt()`, a write placed
 * before the first interrupt re-runs on every resume (also when a helper of the project makes it);
 * a write after it must take its key from the node's state (a parameter), or it repeats when the
 * node is resumed again after a crash.
 */
import { Node, SyntaxKind, type CallExpression, type NewExpression } from 'ts-morph';
import type { Heuristics } from '../classify/heuristics.js';
import { isFunctionNode, originsOf } from './origins.js';
import { refOf } from './resolve.js';
import { keySinks } from './sinks.js';
import { deref } from './sites.js';
import { helperWrite, writeCall } from './writes.js';
import type { Emit } from './emit.js';

function isInterrupt(call: CallExpression): boolean {
  const ref = refOf(call.getExpression());
  if (ref?.path[ref.path.length - 1] !== 'interrupt') return false;
  return ref.module === 'global' ? ref.path.length === 1 : ref.module.startsWith('@langchain/langgraph');
}

/** The function a call runs in, skipping callbacks passed inline (`items.map(async (x) => …)`). */
function bodyOwner(n: Node): Node | undefined {
  for (let p = n.getParent(); p; p = p.getParent()) {
    if (!isFunctionNode(p)) continue;
    const parent = p.getParent();
    if (
      (Node.isArrowFunction(p) || Node.isFunctionExpression(p)) &&
      parent &&
      Node.isCallExpression(parent) &&
      parent.getArguments().includes(p)
    )
      continue;
    return p;
  }
  return undefined;
}

function keyFromState(w: CallExpression | NewExpression, fn: Node, h: Heuristics): 'state' | 'other' | 'none' {
  const roots: Node[] = [
    w,
    ...w
      .getArguments()
      .map((a) => deref(a))
      .filter((a): a is Node => a !== undefined && a !== w),
  ];
  const sinks = roots.flatMap((r) => keySinks(r, h));
  if (sinks.length === 0) return 'none';
  const fromState = sinks.every((s) => originsOf(s.value).some((o) => o.kind === 'param' && o.fn === fn));
  return fromState ? 'state' : 'other';
}

export function checkInterrupt(candidates: readonly Node[], h: Heuristics, emit: Emit): void {
  const byFn = new Map<Node, CallExpression>();
  for (const call of candidates) {
    if (!Node.isCallExpression(call) || !isInterrupt(call)) continue;
    const fn = bodyOwner(call);
    if (fn && !byFn.has(fn)) byFn.set(fn, call);
  }
  for (const [fn, first] of byFn) {
    const calls = [
      ...fn.getDescendantsOfKind(SyntaxKind.CallExpression),
      ...fn.getDescendantsOfKind(SyntaxKind.NewExpression),
    ];
    for (const call of calls) {
      if (bodyOwner(call) !== fn) continue;
      const before = call.getStart() < first.getStart();
      // A project helper that writes counts before the interrupt; after it, the helper may well take
      // its key from the state it is handed, which is not followed (no finding rather than a guess).
      const w = writeCall(call, h, true) ?? (before ? helperWrite(call, h) : undefined);
      if (!w) continue;
      if (before) {
        emit(
          'side_effect_before_interrupt',
          call,
          `${w.label} runs before interrupt() (line ${first.getStartLineNumber()}): the node re-runs from the top on resume, so the write repeats`,
          'move the write into a node after the interrupt, or guard it with a key persisted in state',
        );
        continue;
      }
      const key = keyFromState(call, fn, h);
      if (key !== 'state') {
        const why = key === 'none' ? 'carries no idempotency key' : 'has a key that is not read from the node state';
        emit(
          'side_effect_before_interrupt',
          call,
          `${w.label} after interrupt() ${why}: a crash after the write and a second resume repeat it`,
          'read the idempotency key from state (persisted before the interrupt) and pass it to the write',
        );
      }
    }
  }
}
