/**
 * Operator helpers behind `idemgen reconcile --store URL` and `idemgen prune --store URL`.
 * A pending row past its lease is an outcome nobody knows. Reconcile shows what an operator needs to
 * find out (operation, age, attempts, last error, the argument summary kept at claim time) and records
 * the decision: `completed` (with the result retries should replay), `failed` or `not-executed` (the key
 * is freed and the next retry runs). Every decision is stored in the row: who, when, how and why.
 */
import { encodeResult } from './stored-value.js';
import { requireCapability, type DedupRow, type DedupStore, type SagaRow } from '../store/types.js';

export interface StaleRow extends DedupRow {
  /** How long past its lease the row has been pending, in ms. */
  staleForMs: number;
  /** Since the claim, in ms. */
  ageMs: number;
  /** The stored error when the last attempt ended ambiguously, parsed. */
  lastError: unknown;
  /** The argument summary kept at claim time (`summarize`; default shape and sizes), parsed. */
  summary: unknown;
}

export async function reconcileReport(
  store: DedupStore,
  opts: { now?: number; limit?: number } = {},
): Promise<StaleRow[]> {
  const now = opts.now ?? Date.now();
  const rows = await requireCapability(store, 'reconcile', 'reconcileReport').listStale(now, opts.limit);
  return rows.map((row) => ({
    ...row,
    staleForMs: now - row.leaseExpiresAt,
    ageMs: now - row.createdAt,
    lastError: parseJson(row.error),
    summary: parseJson(row.argsSummary),
  }));
}

export interface StaleSaga extends SagaRow {
  staleForMs: number;
  /** `pending`: the call's outcome is unknown; `compensating`: a compensation is owed or ran out of lease. */
  compensationState: 'not-started' | 'owed';
}

/** Saga rows (OP-5) past their lease: their external id says what exists downstream. */
export async function reconcileSagaReport(
  store: DedupStore,
  table?: string,
  opts: { now?: number; limit?: number } = {},
): Promise<StaleSaga[]> {
  const now = opts.now ?? Date.now();
  const rows = await requireCapability(store, 'saga', 'reconcileSagaReport').saga(table).listStale(now, opts.limit);
  return rows.map((row) => ({
    ...row,
    staleForMs: now - row.leaseExpiresAt,
    compensationState: row.status === 'compensating' ? 'owed' : 'not-started',
  }));
}

export type ResolveAs = 'completed' | 'failed' | 'not-executed';

/** Stored as JSON in the row's `resolution` column. */
export interface ResolutionRecord {
  as: ResolveAs;
  by: string;
  at: string;
  reason: string;
  /** The ambiguous error the row held, kept because the resolution replaces it. */
  previousError: unknown;
  previousAttempts: number;
}

export interface ResolveRequest {
  key: string;
  scope?: string;
  as: ResolveAs;
  /** For `completed`: the result retries replay (any JSON value). */
  result?: unknown;
  by: string;
  reason: string;
  now?: number;
}

export type ResolveOutcome =
  | { resolved: true; row: DedupRow; record: ResolutionRecord }
  | { resolved: false; why: 'not-found' | 'not-pending' | 'lease-live'; row?: DedupRow };

/**
 * Decide an unknown outcome. Only a pending row whose lease has expired (nobody holds it) is touched;
 * the lease token is cleared, so an attempt that wakes up later is fenced out.
 */
export async function resolveUnknown(store: DedupStore, req: ResolveRequest): Promise<ResolveOutcome> {
  const now = req.now ?? Date.now();
  const id = { scope: req.scope ?? '', key: req.key };
  const current = await store.get(id);
  if (!current) return { resolved: false, why: 'not-found' };
  if (current.status !== 'pending') return { resolved: false, why: 'not-pending', row: current };
  if (current.leaseExpiresAt > now) return { resolved: false, why: 'lease-live', row: current };
  const record: ResolutionRecord = {
    as: req.as,
    by: req.by,
    at: new Date(now).toISOString(),
    reason: req.reason,
    previousError: parseJson(current.error),
    previousAttempts: current.attempts,
  };
  const result = req.as === 'completed' ? (await encodeResult(req.result ?? null, Number.MAX_SAFE_INTEGER)).text : null;
  const error = JSON.stringify({ outcome: req.as, name: 'ResolvedByOperator', message: req.reason });
  const row = await requireCapability(store, 'reconcile', 'resolveUnknown').resolve({
    ...id,
    as: req.as,
    result,
    error,
    resolution: JSON.stringify(record),
    now,
  });
  // Lost a race with an OP-1/OP-3 takeover or another operator: report what is there now.
  if (!row) return { resolved: false, why: 'not-pending', row: await store.get(id) };
  return { resolved: true, row, record };
}

export function pruneExpired(store: DedupStore, opts: { now?: number } = {}): Promise<number> {
  return requireCapability(store, 'prune', 'pruneExpired').prune(opts.now ?? Date.now());
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
