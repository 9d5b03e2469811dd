/**
 * The dedup rows this store object claimed and still holds, by lease token (a fresh UUID per claim).
 * `complete` then sends the finished row (all but its two times, which the script adds from the server's
 * clock) and the script needs no decode/encode of the stored one (COMPLETE_HELD), which is most of a
 * completion's server time; the finished row's text is joined from the spans the claim sent (rows.ts),
 * not a second JSON.stringify of the whole row. Only a cache:
 * a miss (a row another process claimed, an entry evicted past the bound) takes the general fenced
 * script, with the same answer. An entry leaves on complete, fail, markUnknown or release; a heartbeat
 * updates its lease expiry.
 */
import { completedPrefix, rowSpans, type RowSpans } from './rows.js';
import type { CompleteInput, DedupRow } from '../types.js';

/** In-flight calls per store object; beyond this the oldest entries fall back to the general path. */
const MAX_HELD = 10_000;

interface Held {
  rowKey: string;
  row: DedupRow;
  /** The spans of the text the claim stored; none for a row that came back from a script (made on completion). */
  spans: RowSpans | undefined;
}

export interface HeldRows {
  /** `row` is kept, not copied: the store never changes a held row (a renewal replaces it). */
  hold(rowKey: string, row: DedupRow, spans?: RowSpans): void;
  /** Removes and returns the held row, if this token holds it. */
  take(rowKey: string, token: string): Held | undefined;
  renewed(rowKey: string, token: string, leaseExpiresAt: number): void;
}

export function createHeldRows(): HeldRows {
  const rows = new Map<string, Held>();
  return {
    hold(rowKey, row, spans) {
      if (row.leaseToken === null) return;
      rows.set(row.leaseToken, { rowKey, row, spans });
      if (rows.size > MAX_HELD) rows.delete(rows.keys().next().value as string);
    },
    take(rowKey, token) {
      const h = rows.get(token);
      if (h === undefined || h.rowKey !== rowKey) return undefined;
      rows.delete(token);
      return h;
    },
    renewed(rowKey, token, leaseExpiresAt) {
      const h = rows.get(token);
      if (h === undefined || h.rowKey !== rowKey) return;
      h.row = { ...h.row, leaseExpiresAt };
    },
  };
}

/**
 * The held row completed, as COMPLETE_HELD's arguments: with `now` (the caller's, or the server's as
 * server-clock.ts knows it) the whole row and an empty tail; without, the text up to `completedAt` and
 * the tail after `expiresAt`, for the script to join around `TIME`. `windowMs`: the dedup window, which
 * restarts at the completion.
 */
export function finishedParts(
  h: Held,
  c: CompleteInput,
  now: number | undefined,
): { text: string; tail: string; windowMs: number } {
  const spans = h.spans ?? rowSpans(h.row);
  const windowMs = h.row.expiresAt - h.row.createdAt;
  const text = completedPrefix(spans, h.row, c.result, c.externalId ?? null);
  if (now === undefined) return { text, tail: spans.tail, windowMs };
  return { text: `${text}${now},"expiresAt":${now + windowMs}${spans.tail}`, tail: '', windowMs };
}
