/**
 * Operator helpers behind `idemgen reconcile --store URL` and `idemgen prune --store URL`.
 * Reconcile only *lists*: an unresolved pending row is an outcome nobody knows, and deciding it
 * (check the downstream, compensate, or release) is a human or saga decision (SOP OP-5).
 */
import type { DedupRow, DedupStore } from './store.js';

export interface StaleRow extends DedupRow {
  /** How long past its lease the row has been pending, in ms. */
  staleForMs: number;
  /** The stored error when the last attempt ended ambiguously, parsed. */
  lastError: unknown;
}

export async function reconcileReport(store: DedupStore, opts: { now?: number; limit?: number } = {}): Promise<StaleRow[]> {
  const now = opts.now ?? Date.now();
  const rows = await store.listStale(now, opts.limit);
  return rows.map((row) => ({ ...row, staleForMs: now - row.leaseExpiresAt, lastError: parseJson(row.error) }));
}

export function pruneExpired(store: DedupStore, opts: { now?: number } = {}): Promise<number> {
  return store.prune(opts.now ?? Date.now());
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
