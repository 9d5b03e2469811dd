/**
 * The repeated-intent soft guard (docs/concepts.md#repeated-intent, opt-in): the model sends a *new* intent — a fresh key — for the same operation
 * and the same recipient-like arguments seconds after a completed one. That may be the user asking
 * twice on purpose, so it runs; but the result says `recentSimilar: { calledAt, key }` so the agent
 * can ask "I sent this 20 s ago — re-send?". In-process and bounded (an LRU like tool-dedup's window):
 * a hint, not a guarantee — the dedup store stays the only authority on duplicates.
 */
import { hashArgs } from './canonical-json.js';

export interface RecentSimilarOptions {
  /** How far back a completed call counts as recent. */
  windowSeconds: number;
  /** The recipient-like part of the arguments to compare (default: all of them). Returning undefined skips the guard. */
  select?: (args: unknown, info: { operation: string }) => unknown;
  /** LRU bound (default 1000 intents). */
  maxEntries?: number;
}

export interface RecentSimilar {
  calledAt: Date;
  key: string;
}

export interface SimilarGuard {
  /** After a call executed (not a replay): the earlier similar call within the window, if any; then remember this one. */
  check(operation: string, scope: string, key: string, args: unknown, now: number): RecentSimilar | undefined;
}

export function createSimilarGuard(opts: RecentSimilarOptions): SimilarGuard {
  const windowMs = opts.windowSeconds * 1000;
  const max = opts.maxEntries ?? 1000;
  const seen = new Map<string, { calledAt: number; key: string }>();
  return {
    check(operation, scope, key, args, now) {
      let picked: unknown;
      try {
        picked = opts.select ? opts.select(args, { operation }) : args;
        if (picked === undefined) return undefined;
      } catch {
        return undefined; // a hint must never fail the call
      }
      const id = `${scope}\n${operation}\n${hashArgs(picked)}`;
      const prior = seen.get(id);
      seen.delete(id);
      seen.set(id, { calledAt: now, key });
      while (seen.size > max) seen.delete(seen.keys().next().value as string);
      if (!prior || prior.key === key || now - prior.calledAt > windowMs) return undefined;
      return { calledAt: new Date(prior.calledAt), key: prior.key };
    },
  };
}
