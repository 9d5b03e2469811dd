/**
 * A saga effect nobody owns any more (saga, docs/concepts.md#mechanisms "possibly compensate the now-known external_id"): a late
 * call whose completion was fenced after a retry took the row over and ran its own call. The row under
 * the caller's key belongs to the retry, so the orphan gets a row of its own, already `compensating`
 * with an expired lease: the next `reconcileSagas` run compensates it through the linked operation.
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../core/canonical-json.js';
import type { SagaRow, SagaStore } from '../store/types.js';

/** Returns the orphan row's key: `orphan:` + sha256(key, fencing token), unique per late attempt. */
export async function recordOrphan(
  saga: SagaStore,
  row: SagaRow,
  lateToken: string,
  externalId: string,
  now: () => number,
): Promise<string> {
  const key = `orphan:${sha256Hex(`${row.key}\n${lateToken}`)}`;
  const token = randomUUID();
  const claim = await saga.claim({
    scope: row.scope,
    key,
    operation: row.operation,
    argsHash: row.argsHash,
    compensationOperation: row.compensationOperation,
    leaseToken: token,
    now: now(),
    leaseMs: 60_000,
    ttlMs: Math.max(0, row.expiresAt - row.createdAt),
  });
  if (!claim.claimed) return key; // already recorded
  const note = JSON.stringify({
    outcome: 'orphan',
    orphanOf: row.key,
    externalId,
    message: 'completion fenced after a takeover',
  });
  await saga.transition({
    scope: row.scope,
    key,
    leaseToken: token,
    now: now(),
    from: ['pending'],
    to: 'compensating',
    externalId,
    error: note,
    leaseMs: 0,
  });
  return key;
}
