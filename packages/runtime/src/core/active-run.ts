/**
 * The dedup run the current async call chain is inside. A run with the same key started inside it — a
 * generated client called with the tool's `idempotency_key` from a `withIdempotency` handler — joins the
 * outer run instead of claiming the same (scope, key) a second time: one row per call, never a conflict
 * with itself (which would burn the key the handler was given). Joining hands the inner request the outer run's context, so the outer row is
 * released on a definite failure of that single request (a 4xx) exactly as if it had sent it itself.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunContext } from './idempotency.js';

export interface ActiveRun {
  key: string;
  ctx: RunContext;
  createdAt: number;
}

const active = new AsyncLocalStorage<ActiveRun>();

export function currentRun(key: string): ActiveRun | undefined {
  const run = active.getStore();
  return run !== undefined && run.key === key ? run : undefined;
}

export function insideRun<T>(run: ActiveRun, fn: () => Promise<T>): Promise<T> {
  return active.run(run, fn);
}
