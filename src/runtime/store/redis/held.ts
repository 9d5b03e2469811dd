/**
 * The dedup rows this store object claimed and still holds, by (row key, lease token). `complete` then
 * sends the finished row and the script needs no decode/encode of the stored one (COMPLETE_HELD), which
 * is most of a completion's server time. Only a cache: a miss (a row another process claimed, an entry
 * evicted past the bound) takes the general fenced script, with the same answer. An entry leaves on
 * complete, fail, markUnknown or release; a heartbeat updates its lease expiry.
 */
import type { DedupRow } from '../types.js';

/** In-flight calls per store object; beyond this the oldest entries fall back to the general path. */
const MAX_HELD = 10_000;

export interface HeldRows {
  hold(rowKey: string, row: DedupRow): void;
  /** Removes and returns the held row, if this token holds it. */
  take(rowKey: string, token: string): DedupRow | undefined;
  renewed(rowKey: string, token: string, leaseExpiresAt: number): void;
}

export function createHeldRows(): HeldRows {
  const rows = new Map<string, DedupRow>();
  const id = (rowKey: string, token: string): string => `${token}\u0000${rowKey}`;
  return {
    hold(rowKey, row) {
      if (row.leaseToken === null) return;
      rows.set(id(rowKey, row.leaseToken), row);
      if (rows.size > MAX_HELD) rows.delete(rows.keys().next().value as string);
    },
    take(rowKey, token) {
      const k = id(rowKey, token);
      const row = rows.get(k);
      if (row !== undefined) rows.delete(k);
      return row;
    },
    renewed(rowKey, token, leaseExpiresAt) {
      const row = rows.get(id(rowKey, token));
      if (row !== undefined) row.leaseExpiresAt = leaseExpiresAt;
    },
  };
}
