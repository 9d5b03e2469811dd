/**
 * The dedup claim as one plain command, no script: `SET row <json> NX GET` inserts the pending row only
 * if the key is free and returns the row that is there otherwise (Redis ≥ 7.0, Valkey). A Lua call
 * costs the server several times a SET, and a second command costs the client as much again (node-redis
 * work per command); a fresh key is the common case, so it pays for neither. Nothing else is written:
 * `listStale` finds unresolved rows by scanning the rows themselves, so a claimer SIGKILLed right after
 * this SET leaves a row reconcile still lists.
 *
 * The row's times are the server's clock as server-clock.ts extrapolates it (or the caller's `now` with
 * `clock: 'caller'`): `row.createdAt` is that now, returned with a row that won (`ClaimResult.now`).
 *
 * `undefined` hands the claim to the CLAIM_ROW script: a resolved row past `expiresAt` (replaced there,
 * carrying an operator's resolution over), or a server older than 7.0 (`NX` with `GET` is a syntax
 * error there; this store object then stops trying).
 */
import type { RedisConnection } from './client.js';
import { toDedupRow } from './rows.js';
import type { ClaimResult, DedupRow } from '../types.js';

/** `text` is JSON.stringify(row), made by the caller (it keeps it for the completion). */
export type PlainClaim = (rowKey: string, row: DedupRow, text: string) => Promise<ClaimResult | undefined>;

export function createPlainClaim(conn: RedisConnection): PlainClaim {
  let supported = true;
  const settle = (row: DedupRow, found: unknown): ClaimResult | undefined => {
    if (found === null || found === undefined) return { claimed: true, row };
    const current = toDedupRow(String(found), row);
    if (current.status !== 'pending' && current.expiresAt <= row.createdAt) return undefined;
    return { claimed: false, row: current, now: row.createdAt };
  };
  const unsupported = (err: unknown): undefined => {
    if (!/syntax error/i.test(String((err as Error)?.message))) throw err;
    supported = false;
    return undefined;
  };
  return (rowKey, row, text) => {
    if (!supported) return Promise.resolve(undefined);
    return conn.command(['SET', rowKey, text, 'NX', 'GET']).then((found) => settle(row, found), unsupported);
  };
}
