/**
 * The `saga` mechanism (record intent → call → completed with external id), the intent written before the
 * call (docs/concepts.md#outcomes).
 * A duplicate returns the stored external id without calling; a live pending row is waited on;
 * a stale pending row is never called blindly: the `reconcile` callback asks the downstream what
 * happened first (saga, docs/concepts.md#mechanisms "investigate").
 */
import { mechanismName, type MechanismInput } from '../core/mechanism.js';
import { randomUUID } from 'node:crypto';
import { hashArgs } from '../core/canonical-json.js';
import {
  IdempotencyConflictError,
  IdempotencyFailedError,
  IdempotencyFencedError,
  IdempotencyInFlightError,
  IdempotencyOutcomeUnknownError,
  IdempotencyStoreUnavailableError,
} from '../core/errors.js';
import {
  createIdempotency,
  type IdempotencyOptions,
  type RunContext,
  type RunRequest,
  type RunResult,
} from '../core/idempotency.js';
import { scopeString, validateKey, type KeyScope } from '../core/keys.js';
import { withHeartbeat } from '../core/lease-heartbeat.js';
import { createRunTag, trustedNotExecuted } from '../core/run-tag.js';
import { recordOrphan } from './orphan.js';
import { isStoreUnavailable, unavailableReason } from '../core/unavailable.js';
import {
  requireCapability,
  type ClaimResult,
  type DedupRow,
  type DedupStore,
  type SagaRow,
  type SagaStore,
} from '../store/types.js';
import { decodeResult, encodeError, encodeResult, unencodableMarker } from '../core/stored-value.js';

export interface SagaRequest {
  operation: string;
  key: string;
  scope?: string | KeyScope;
  args: unknown;
  /** The linked inverse (`DELETE /things/{id}`, `refund`), recorded for reconcile. */
  compensationOperation?: string;
  ttlSeconds?: number;
  table?: string;
  leaseMs?: number;
  /** Lease renewal interval while `call` runs (default `leaseMs / 3`; 0 turns the heartbeat off). */
  heartbeatMs?: number;
  waitMs?: number;
  pollMs?: number;
  now?: () => number;
}

export type ReconcileVerdict<T> =
  | { status: 'happened'; externalId: string | null; result?: T }
  | { status: 'not-happened' }
  | { status: 'unknown' };

export interface SagaHandlers<T> {
  /** `externalId: null`: the effect happened but nothing addresses its inverse (it cannot be undone). */
  call(ctx: RunContext): Promise<{ externalId: string | null; result: T }>;
  /** Look the intent up downstream (by key, metadata, or a search) after a crash. */
  reconcile?(row: SagaRow): Promise<ReconcileVerdict<T>>;
  /** Undo a known external effect through the linked operation. */
  compensate?(externalId: string, row: SagaRow): Promise<void>;
}

export interface SagaResult<T> extends RunResult<T> {
  /** What addresses the inverse; `''` when nothing does (`cannotUndo`). */
  externalId: string;
}

interface SagaCall {
  saga: SagaStore;
  scope: string;
  req: SagaRequest;
  now: () => number;
  leaseMs: number;
  heartbeatMs: number;
}

const asDedupState = (row: SagaRow): DedupRow => ({
  ...row,
  mechanism: 'saga',
  status: row.status === 'completed' ? 'completed' : row.status === 'pending' ? 'pending' : 'failed',
  attempts: 0,
  completedAt: null,
  argsSummary: null,
  resolution: null,
});

function ctxOf(c: SagaCall, row?: SagaRow) {
  return { key: c.req.key, operation: c.req.operation, scope: c.scope, state: row ? asDedupState(row) : undefined };
}

async function callAndComplete<T>(
  c: SagaCall,
  row: SagaRow,
  token: string,
  h: SagaHandlers<T>,
): Promise<SagaResult<T>> {
  const id = { scope: c.scope, key: c.req.key, leaseToken: token };
  const tag = createRunTag();
  const renew = () => c.saga.renewLease({ ...id, now: c.now(), leaseMs: c.leaseMs });
  let out: { externalId: string | null; result: T };
  try {
    out = await withHeartbeat(renew, c.heartbeatMs, () =>
      h.call({ key: c.req.key, leaseToken: token, attempt: 1, tag }),
    );
  } catch (err) {
    if (trustedNotExecuted(err, tag)) {
      await c.saga.release({ ...id, now: c.now() });
      throw err;
    }
    await c.saga.transition({
      ...id,
      now: c.now(),
      from: ['pending'],
      to: 'pending',
      error: encodeError(err, 'unknown'),
      leaseMs: 0,
    });
    throw new IdempotencyOutcomeUnknownError(`${c.req.operation}: outcome unknown; run reconcile`, ctxOf(c, row), {
      cause: err,
    });
  }
  return recordCompleted(c, row, token, out, false);
}

async function recordCompleted<T>(
  c: SagaCall,
  row: SagaRow,
  token: string,
  out: { externalId: string | null; result?: T },
  wasReplay: boolean,
): Promise<SagaResult<T>> {
  // Same encoding as the dedup table, so a binary (Blob) result replays byte-identical; sagas have no cap.
  const text = await encodeResult(out.result ?? null, Infinity).then((r) => r.text, unencodableMarker);
  const ok = await c.saga.transition({
    scope: c.scope,
    key: c.req.key,
    leaseToken: token,
    now: c.now(),
    from: ['pending'],
    to: 'completed',
    externalId: out.externalId,
    result: text,
    error: null,
  });
  if (!ok) return onSagaFenced(c, row, token, out);
  const done: SagaResult<T> = {
    result: out.result as T,
    externalId: out.externalId ?? '',
    wasReplay,
    originalCalledAt: new Date(row.createdAt),
  };
  if (wasReplay) done.replayEvidence = 'store';
  if (out.externalId === null) done.cannotUndo = true;
  return done;
}

/**
 * Our completion was fenced: our lease lapsed and a retry took the row over. If the row now holds our
 * external id, the retry adopted our effect and nothing is lost. Otherwise our effect is an orphan:
 * record it (a `compensating` row of its own) so `reconcileSagas` undoes it, and tell the caller.
 */
async function onSagaFenced<T>(
  c: SagaCall,
  row: SagaRow,
  token: string,
  out: { externalId: string | null; result?: T },
): Promise<SagaResult<T>> {
  const current = await c.saga.get({ scope: c.scope, key: c.req.key });
  if (out.externalId === null) {
    const fenced = new IdempotencyFencedError(
      `${c.req.operation}: saga row taken over while this call ran; its effect has no address to undo it by`,
      ctxOf(c, current ?? row),
    );
    fenced.result = out.result;
    throw fenced;
  }
  if (current?.externalId === out.externalId) {
    return {
      result: out.result as T,
      externalId: out.externalId,
      wasReplay: false,
      originalCalledAt: new Date(row.createdAt),
    };
  }
  const orphanKey = await recordOrphan(
    c.saga,
    { ...row, scope: c.scope, key: c.req.key },
    token,
    out.externalId,
    c.now,
  );
  const fenced = new IdempotencyFencedError(
    `${c.req.operation}: saga row taken over while this call ran; its effect ${out.externalId} is recorded as orphan ` +
      `${orphanKey} for reconcileSagas to compensate`,
    ctxOf(c, current ?? row),
  );
  fenced.result = out.result;
  fenced.externalId = out.externalId;
  throw fenced;
}

/** A pending row past its lease: own it, then ask the downstream before anything else. */
async function onStale<T>(c: SagaCall, row: SagaRow, h: SagaHandlers<T>): Promise<SagaResult<T> | undefined> {
  if (!h.reconcile) {
    throw new IdempotencyOutcomeUnknownError(
      `${c.req.operation}: stale pending saga and no reconcile handler`,
      ctxOf(c, row),
    );
  }
  const token = randomUUID();
  const taken = await c.saga.takeOver({
    scope: c.scope,
    key: c.req.key,
    expectedToken: row.leaseToken,
    newToken: token,
    now: c.now(),
    leaseMs: c.leaseMs,
    from: ['pending'],
  });
  if (!taken) return undefined; // another retry owns it now
  const reconcile = h.reconcile;
  const renew = () =>
    c.saga.renewLease({ scope: c.scope, key: c.req.key, leaseToken: token, now: c.now(), leaseMs: c.leaseMs });
  const verdict = await withHeartbeat(renew, c.heartbeatMs, () => reconcile(taken));
  if (verdict.status === 'happened') return recordCompleted(c, taken, token, verdict, true); // adopt, don't repeat
  if (verdict.status === 'not-happened') return callAndComplete(c, taken, token, h);
  await c.saga.transition({
    scope: c.scope,
    key: c.req.key,
    leaseToken: token,
    now: c.now(),
    from: ['pending'],
    to: 'pending',
    leaseMs: 0,
  });
  throw new IdempotencyOutcomeUnknownError(
    `${c.req.operation}: reconcile could not tell whether it happened`,
    ctxOf(c, taken),
  );
}

function replaySaga<T>(c: SagaCall, row: SagaRow): SagaResult<T> {
  if (row.status !== 'completed') {
    throw new IdempotencyFailedError(`${c.req.operation}: saga is ${row.status} under this key`, ctxOf(c, row));
  }
  const decoded = decodeResult(row.result);
  const result = (decoded.kind === 'value' ? decoded.value : null) as T;
  const out: SagaResult<T> = {
    result,
    externalId: row.externalId ?? '',
    wasReplay: true,
    replayEvidence: 'store',
    originalCalledAt: new Date(row.createdAt),
  };
  if (row.externalId === null) out.cannotUndo = true;
  return out;
}

export async function runSaga<T>(
  store: DedupStore,
  req: SagaRequest,
  handlers: SagaHandlers<T>,
): Promise<SagaResult<T>> {
  validateKey(req.key);
  const leaseMs = req.leaseMs ?? 30_000;
  const c: SagaCall = {
    saga: requireCapability(store, 'saga', 'runSaga').saga(req.table),
    scope: scopeString(req.scope),
    req,
    now: req.now ?? Date.now,
    leaseMs,
    heartbeatMs: req.heartbeatMs ?? leaseMs / 3,
  };
  const argsHash = hashArgs(req.args);
  const pollMs = req.pollMs ?? 50;
  const polls = Math.ceil((req.waitMs ?? 10_000) / Math.max(1, pollMs));
  for (let poll = 0; ; poll++) {
    const token = randomUUID();
    let claim: ClaimResult<SagaRow>;
    try {
      claim = await c.saga.claim({
        scope: c.scope,
        key: req.key,
        operation: req.operation,
        argsHash,
        compensationOperation: req.compensationOperation ?? null,
        leaseToken: token,
        now: c.now(),
        leaseMs: c.leaseMs,
        ttlMs: (req.ttlSeconds ?? 86_400) * 1000,
      });
    } catch (err) {
      // No intent row, so nothing was called: the same typed answer as a dedup claim (core/idempotency.ts).
      if (!isStoreUnavailable(err)) throw err;
      throw new IdempotencyStoreUnavailableError(
        `${req.operation}: the idempotency store is unreachable (${unavailableReason(err)}); nothing was executed, retry later with the same key`,
        ctxOf(c),
        { cause: err },
      );
    }
    if (claim.claimed) return callAndComplete(c, claim.row, token, handlers);
    const row = claim.row;
    if (row.argsHash !== argsHash || row.operation !== req.operation) {
      throw new IdempotencyConflictError(`key reused for ${row.operation} with different arguments`, ctxOf(c, row));
    }
    const live = row.leaseExpiresAt > c.now();
    if (row.status !== 'pending' && row.status !== 'compensating') return replaySaga(c, row);
    if (!live && row.status === 'pending') {
      const out = await onStale(c, row, handlers);
      if (out) return out;
    } else if (!live || poll >= polls) {
      const busy = new IdempotencyInFlightError(`${req.operation}: saga ${row.status} under this key`, ctxOf(c, row));
      if (live) {
        busy.retryAfterMs = row.leaseExpiresAt - c.now();
        busy.retryAt = new Date(row.leaseExpiresAt);
      }
      throw busy;
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export type CheckpointRequest = Omit<RunRequest, 'mechanism'> & { mechanism?: MechanismInput } & Omit<
    IdempotencyOptions,
    'store'
  >;

/**
 * docs/concepts.md: persist (key, args hash, pending) before the call and the result after, for any
 * orchestrator. A crash leaves `pending`; a retry then polls or fails closed.
 */
export function checkpoint<T>(
  store: DedupStore,
  req: CheckpointRequest,
  fn: (ctx: RunContext) => Promise<T>,
): Promise<RunResult<T>> {
  const { operation, key, scope, args, ttlSeconds, mechanism = 'fail-closed', ...options } = req;
  const named = mechanismName(mechanism); // an `OP-N` spelling read as the name at this entry
  return createIdempotency({ store, ...options }).run(
    { operation, key, scope, args, ttlSeconds, mechanism: named },
    fn,
  );
}
