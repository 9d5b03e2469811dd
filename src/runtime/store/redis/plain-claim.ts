/**
 * The dedup claim as two plain commands in one round trip, no script: `SET row <json> NX GET` inserts
 * the pending row only if the key is free and returns the row that is there otherwise (Redis ≥ 7.0,
 * Valkey), and `ZADD stale NX <lease expiry> row` indexes it. A Lua call costs the server several
 * times a SET; a fresh key is the common case, so it pays for none.
 *
 * `ZADD NX` never moves an existing entry (a pending row's own entry keeps its lease score, so a
 * retried unknown outcome stays listed); when the row found is resolved, the entry it just added is
 * dropped by UNINDEX_RESOLVED, sent without waiting. `undefined` hands the claim to the CLAIM script:
 * a resolved row past `expiresAt` (replaced there, carrying an operator's resolution over), or a
 * server older than 7.0 (`NX` with `GET` is a syntax error there; this store object then stops trying).
 */
import type { RedisConnection } from './client.js';
import { toDedupRow } from './rows.js';
import { UNINDEX_RESOLVED } from './scripts.js';
import type { ClaimResult, DedupRow } from '../types.js';

export type PlainClaim = (rowKey: string, row: DedupRow) => Promise<ClaimResult | undefined>;

export function createPlainClaim(conn: RedisConnection, staleKey: string): PlainClaim {
  let supported = true;
  return async (rowKey, row) => {
    if (!supported) return undefined;
    const set = conn.command(['SET', rowKey, JSON.stringify(row), 'NX', 'GET']);
    const index = conn.command(['ZADD', staleKey, 'NX', String(row.leaseExpiresAt), rowKey]);
    let found: unknown;
    try {
      [found] = await Promise.all([set, index]);
    } catch (err) {
      if (!/syntax error/i.test(String((err as Error)?.message))) throw err;
      supported = false; // the ZADD may have indexed a missing row: LIST_STALE drops such entries
      return undefined;
    }
    if (found === null || found === undefined) return { claimed: true, row };
    const current = toDedupRow(String(found));
    if (Number(await index) === 1 && current.status !== 'pending') {
      conn.script(UNINDEX_RESOLVED, [rowKey, staleKey], []).catch(() => undefined);
    }
    if (current.status !== 'pending' && current.expiresAt <= row.createdAt) return undefined;
    return { claimed: false, row: current };
  };
}
