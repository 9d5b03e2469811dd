/**
 * `reconcile --verify`: every pending dedup row past its lease whose operation has a verification plan is
 * settled by the same lookup a retry runs (lookup.ts) — found: completed with the found resource; proven
 * absent: the key is freed; anything else stays listed. Each decision is stored in the row (who, why) the
 * way an operator's `--resolve` is.
 */
import { reconcileReport, resolveUnknown, type StaleRow } from '../core/reconcile.js';
import type { HttpCaller } from '../http/caller.js';
import type { DedupStore } from '../store/types.js';
import { callFromSummary, settleUnknown } from './lookup.js';
import type { SettleOptions, VerificationPlan } from './types.js';

export interface VerifyDecision {
  row: StaleRow;
  /** `completed`/`released`: settled and recorded; `unknown`: the lookup could not tell; `no-plan`: nothing to look with. */
  decision: 'completed' | 'released' | 'unknown' | 'no-plan';
  evidence: string;
}

export interface VerifyPendingOptions {
  /** Operation key → its plan (from the classified specs). */
  plans: ReadonlyMap<string, VerificationPlan>;
  http: HttpCaller;
  /** Credentials the lookups send. */
  headers?: Record<string, string>;
  by?: string;
  settle?: SettleOptions;
  now?: number;
}

export async function verifyPending(store: DedupStore, o: VerifyPendingOptions): Promise<VerifyDecision[]> {
  const rows = await reconcileReport(store, o.now === undefined ? {} : { now: o.now });
  const out: VerifyDecision[] = [];
  for (const row of rows) {
    const plan = o.plans.get(row.operation);
    if (plan === undefined) {
      out.push({ row, decision: 'no-plan', evidence: 'the operation has no verification plan' });
      continue;
    }
    const call = callFromSummary(row.summary);
    if (call === undefined) {
      out.push({ row, decision: 'no-plan', evidence: 'the row keeps no lookup values (written before verification)' });
      continue;
    }
    if (o.headers !== undefined) call.headers = o.headers;
    call.claimedAt = row.createdAt;
    const v = await settleUnknown(o.http, plan, call, o.settle);
    const by = o.by ?? 'idemgen reconcile --verify';
    const reason = `${plan.shape}: ${v.evidence}`;
    if (v.status === 'unknown') {
      out.push({ row, decision: 'unknown', evidence: v.evidence });
      continue;
    }
    const as = v.status === 'found' ? 'completed' : 'not-executed';
    const done = await resolveUnknown(store, {
      key: row.key,
      scope: row.scope,
      as,
      ...(v.status === 'found' ? { result: v.resource } : {}),
      by,
      reason,
    });
    out.push({
      row,
      decision: done.resolved ? (as === 'completed' ? 'completed' : 'released') : 'unknown',
      evidence: done.resolved ? v.evidence : `${v.evidence}; the row changed meanwhile (${done.why})`,
    });
  }
  return out;
}
