/**
 * Operator helpers behind `idemgen reconcile --store URL` and `idemgen prune --store URL`.
 * A pending row past its lease is an outcome nobody knows. Reconcile shows what an operator needs to
 * find out (operation, age, attempts, last error, the argument summary kept at claim time) and records
 * the decision: `completed` (with the result retries should replay), `failed` or `not-executed` (the key
 * is freed and the next retry runs). Every decision is stored in the row: who, when, how and why.
 */
import { encodeResult } from './stored-value.js';
import { IdempotencyRecordCorruptError } from './errors.js';
import { corruptionOf } from './corrupt.js';
import {
  hasCapability,
  requireCapability,
  type CorruptRow,
  type DedupRow,
  type DedupStore,
  type SagaRow,
} from './store-types.js';

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

/** Saga rows past their lease: their external id says what exists downstream. */
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

/**
 * `repaired`: the row was corrupt (corruptReport) and the decision repaired it; `row` is then what is
 * stored now, absent when the repair deleted an unreadable row. `unreadable`: `--as completed` on a
 * row of which nothing reads (no operation or arguments hash to replay against): free the key instead.
 */
export type ResolveOutcome =
  | { resolved: true; row: DedupRow; record: ResolutionRecord; repaired?: false }
  | { resolved: true; row: DedupRow | undefined; record: ResolutionRecord; repaired: true }
  | { resolved: false; why: 'not-found' | 'not-pending' | 'lease-live' | 'unreadable'; row?: DedupRow };

/** Rows whose stored result (or, on Redis, whole value) no longer parses; `[]` for a store without the capability. */
export async function corruptReport(store: DedupStore, opts: { limit?: number } = {}): Promise<CorruptRow[]> {
  if (!hasCapability(store, 'repair')) return [];
  return store.listCorrupt(opts.limit);
}

/**
 * An operator's decision as a store writes it (`resolve` and `repairCorrupt` alike): the audit record, and the
 * row's new result (a completed decision) and error.
 */
async function decision(req: ResolveRequest, now: number, previousError: unknown, previousAttempts: number) {
  const record: ResolutionRecord = {
    as: req.as,
    by: req.by,
    at: new Date(now).toISOString(),
    reason: req.reason,
    previousError,
    previousAttempts,
  };
  const result = req.as === 'completed' ? (await encodeResult(req.result ?? null, Number.MAX_SAFE_INTEGER)).text : null;
  const error = JSON.stringify({ outcome: req.as, name: 'ResolvedByOperator', message: req.reason });
  return { record, write: { as: req.as, result, error, resolution: JSON.stringify(record), now } };
}

/** A corrupt row's repair, by the same decision words as `resolveUnknown` (which calls it for such a row). */
async function repair(store: DedupStore, req: ResolveRequest, bad: CorruptRow, now: number): Promise<ResolveOutcome> {
  if (bad.row === undefined && req.as === 'completed') return { resolved: false, why: 'unreadable' };
  const previous = { name: 'IdempotencyRecordCorruptError', message: bad.reason, stored: bad.text };
  const { record, write } = await decision(req, now, previous, bad.row?.attempts ?? 0);
  const id = { scope: bad.scope, key: bad.key };
  const done = await requireCapability(store, 'repair', 'resolveUnknown').repairCorrupt({
    ...id,
    ...write,
    seen: bad.seen,
  });
  if (!done) return { resolved: false, why: 'not-pending', row: await store.get(id).catch(() => undefined) };
  return { resolved: true, repaired: true, row: await store.get(id), record };
}

/** The corrupt-row entry for `id`, when the store can list such rows and this one is among them. */
async function findCorrupt(store: DedupStore, id: { scope: string; key: string }): Promise<CorruptRow | undefined> {
  if (!hasCapability(store, 'repair')) return undefined;
  return (await store.listCorrupt(Number.MAX_SAFE_INTEGER)).find((c) => c.key === id.key && c.scope === id.scope);
}

/**
 * Decide an unknown outcome. Only a pending row whose lease has expired (nobody holds it) is touched;
 * the lease token is cleared, so an attempt that wakes up later is fenced out.
 */
export async function resolveUnknown(store: DedupStore, req: ResolveRequest): Promise<ResolveOutcome> {
  const now = req.now ?? Date.now();
  const id = { scope: req.scope ?? '', key: req.key };
  let current: DedupRow | undefined;
  try {
    current = await store.get(id);
  } catch (err) {
    if (!(err instanceof IdempotencyRecordCorruptError)) throw err;
    const bad = await findCorrupt(store, id); // the row itself does not parse (Redis)
    if (bad) return repair(store, req, bad, now);
    throw err;
  }
  if (!current) return { resolved: false, why: 'not-found' };
  if (current.status !== 'pending') {
    const bad = corruptionOf(current);
    if (bad === undefined) return { resolved: false, why: 'not-pending', row: current };
    // Redis compares the whole stored value; the SQL stores the result column (corruptionOf's default).
    return repair(store, req, (await findCorrupt(store, id)) ?? bad, now);
  }
  if (current.leaseExpiresAt > now) return { resolved: false, why: 'lease-live', row: current };
  const { record, write } = await decision(req, now, parseJson(current.error), current.attempts);
  const row = await requireCapability(store, 'reconcile', 'resolveUnknown').resolve({ ...id, ...write });
  // Lost a race with a native-key or content-address takeover or another operator: report what is there now.
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
