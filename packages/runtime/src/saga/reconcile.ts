/**
 * Saga reconciliation and compensation (saga, docs/concepts.md#mechanisms: "on reconciliation job finding a pending past
 * TTL: investigate; possibly compensate the now-known external_id"). No caller is waiting for an
 * orphan found by the job, so a confirmed orphan is undone through the linked operation.
 */
import { randomUUID } from 'node:crypto';
import { requireCapability, type DedupStore, type SagaRow } from '../store/types.js';
import type { SagaHandlers } from './run.js';
import { encodeError } from '../core/stored-value.js';

export interface SagaReconcileOutcome {
  row: SagaRow;
  action: 'compensated' | 'completed' | 'released' | 'unknown' | 'skipped' | 'compensation-failed';
}

async function compensateOwned(
  store: DedupStore,
  row: SagaRow,
  token: string,
  externalId: string,
  compensate: NonNullable<SagaHandlers<unknown>['compensate']>,
  now: () => number,
  table?: string,
): Promise<boolean> {
  const saga = requireCapability(store, 'saga', 'saga reconcile').saga(table);
  const id = { scope: row.scope, key: row.key, leaseToken: token };
  if (
    !(await saga.transition({
      ...id,
      now: now(),
      from: ['pending', 'completed', 'compensating'],
      to: 'compensating',
      externalId,
    }))
  ) {
    return false;
  }
  try {
    await compensate(externalId, { ...row, externalId });
  } catch (err) {
    // Stays `compensating` with an expired lease: the next reconcile run retries the inverse.
    await saga.transition({
      ...id,
      now: now(),
      from: ['compensating'],
      to: 'compensating',
      error: encodeError(err, 'unknown'),
      leaseMs: 0,
    });
    return false;
  }
  return saga.transition({ ...id, now: now(), from: ['compensating'], to: 'compensated', error: null });
}

/** Undo a completed saga through its linked compensation operation. */
export async function compensateSaga(
  store: DedupStore,
  id: { scope?: string; key: string; table?: string; now?: () => number; leaseMs?: number },
  compensate: (externalId: string, row: SagaRow) => Promise<void>,
): Promise<SagaRow | undefined> {
  const saga = requireCapability(store, 'saga', 'saga reconcile').saga(id.table);
  const now = id.now ?? Date.now;
  const row = await saga.get({ scope: id.scope ?? '', key: id.key });
  if (row?.status !== 'completed' || !row.externalId) return row;
  // Completed rows hold an expired lease only if we let it lapse; take it with a fresh token.
  const token = randomUUID();
  const taken = await saga.takeOver({
    scope: row.scope,
    key: row.key,
    expectedToken: row.leaseToken,
    newToken: token,
    now: Math.max(now(), row.leaseExpiresAt),
    leaseMs: id.leaseMs ?? 30_000,
    from: ['completed'],
  });
  if (!taken) return saga.get(row);
  await compensateOwned(store, taken, token, row.externalId, compensate, now, id.table);
  return saga.get(row);
}

/** The reconcile job: every stale pending/compensating saga row, decided by the downstream. */
export async function reconcileSagas<T>(
  store: DedupStore,
  handlers: Pick<SagaHandlers<T>, 'reconcile' | 'compensate'>,
  opts: { table?: string; now?: () => number; leaseMs?: number; limit?: number } = {},
): Promise<SagaReconcileOutcome[]> {
  const saga = requireCapability(store, 'saga', 'saga reconcile').saga(opts.table);
  const now = opts.now ?? Date.now;
  const out: SagaReconcileOutcome[] = [];
  for (const row of await saga.listStale(now(), opts.limit)) {
    const token = randomUUID();
    const taken = await saga.takeOver({
      scope: row.scope,
      key: row.key,
      expectedToken: row.leaseToken,
      newToken: token,
      now: now(),
      leaseMs: opts.leaseMs ?? 30_000,
      from: ['pending', 'compensating'],
    });
    // A compensating row (an undo under way, or a recorded orphan) already names its effect.
    const externalId = taken?.status === 'compensating' ? taken.externalId : null;
    if (!taken || (!externalId && !handlers.reconcile)) {
      out.push({ row, action: 'skipped' });
      continue;
    }
    const verdict = externalId ? { status: 'happened' as const, externalId } : await handlers.reconcile!(taken);
    out.push({ row: taken, action: await settle(store, taken, token, verdict, handlers, now, opts.table) });
  }
  return out;
}

async function settle<T>(
  store: DedupStore,
  row: SagaRow,
  token: string,
  verdict: Awaited<ReturnType<NonNullable<SagaHandlers<T>['reconcile']>>>,
  handlers: Pick<SagaHandlers<T>, 'compensate'>,
  now: () => number,
  table?: string,
): Promise<SagaReconcileOutcome['action']> {
  const saga = requireCapability(store, 'saga', 'saga reconcile').saga(table);
  const id = { scope: row.scope, key: row.key, leaseToken: token, now: now() };
  if (verdict.status === 'not-happened') return (await saga.release(id)) ? 'released' : 'skipped';
  if (verdict.status === 'unknown') {
    await saga.transition({ ...id, from: [row.status], to: row.status, leaseMs: 0 });
    return 'unknown';
  }
  if (handlers.compensate && verdict.externalId !== null) {
    const ok = await compensateOwned(store, row, token, verdict.externalId, handlers.compensate, now, table);
    return ok ? 'compensated' : 'compensation-failed';
  }
  await saga.transition({
    ...id,
    from: ['pending'],
    to: 'completed',
    externalId: verdict.externalId,
    result: JSON.stringify(verdict.result ?? null),
  });
  return 'completed';
}
