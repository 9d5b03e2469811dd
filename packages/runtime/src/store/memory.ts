/**
 * In-memory dedup store for unit tests only: a process restart forgets every key, which is
 * exactly what docs/concepts.md#store-rules forbids in production ("don't store the dedup key only in memory").
 * Each method runs synchronously, so claim is atomic within the event loop. Single-host by nature:
 * leases and expiry are judged by the caller's `now` (one process, one clock).
 */
import type {
  ClaimInput,
  ClaimResult,
  CompleteInput,
  DedupRow,
  FailInput,
  FullDedupStore,
  FencedInput,
  RowId,
  RenewInput,
  RepairInput,
  ResolveInput,
  SagaClaimInput,
  SagaRow,
  SagaStore,
  SagaTransition,
  TakeOverInput,
  SagaStatus,
} from './types.js';
import { corruptionOf } from '../core/corrupt.js';

/**
 * The row a won claim writes (every store: the same pending state and lease). Its `expiresAt` is
 * `now + ttlMs` only to keep the window's length (`expiresAt − createdAt`): the lease governs a pending
 * row, and `complete`/`fail` restart the window from the completion (`windowEnd`).
 */
export function pendingRow(i: ClaimInput, resolution: string | null, now = i.now): DedupRow {
  return {
    scope: i.scope,
    key: i.key,
    operation: i.operation,
    argsHash: i.argsHash,
    mechanism: i.mechanism,
    status: 'pending',
    result: null,
    error: null,
    externalId: null,
    leaseToken: i.leaseToken,
    leaseExpiresAt: now + i.leaseMs,
    attempts: 1,
    createdAt: now,
    completedAt: null,
    expiresAt: now + i.ttlMs,
    argsSummary: i.argsSummary ?? null,
    resolution,
  };
}

/** The saga row a fresh claim writes (the memory and Redis saga stores). */
export function pendingSagaRow(i: SagaClaimInput): SagaRow {
  return {
    scope: i.scope,
    key: i.key,
    operation: i.operation,
    argsHash: i.argsHash,
    status: 'pending',
    externalId: null,
    compensationOperation: i.compensationOperation,
    result: null,
    error: null,
    leaseToken: i.leaseToken,
    leaseExpiresAt: i.now + i.leaseMs,
    createdAt: i.now,
    updatedAt: i.now,
    expiresAt: i.now + i.ttlMs,
  };
}

/** A row resolving at `now` keeps its full window from then: `now + (expiresAt − createdAt)`. */
const windowEnd = (row: Pick<DedupRow, 'createdAt' | 'expiresAt'>, now: number): number =>
  now + (row.expiresAt - row.createdAt);

/** The columns a resolution sets, shared by every store (SQL spells the same thing in its UPDATE). */
function resolvedPatch(r: ResolveInput, row: Pick<DedupRow, 'createdAt' | 'expiresAt'>): Partial<DedupRow> {
  const common = { leaseToken: null, completedAt: r.now, resolution: r.resolution };
  if (r.as === 'completed') {
    return { ...common, status: 'completed', result: r.result ?? null, error: null, expiresAt: windowEnd(row, r.now) };
  }
  // Expired at once: the next claim replaces the row and the retry runs.
  return { ...common, status: 'failed', error: r.error, expiresAt: r.now };
}

/**
 * A damaged row settled by an operator (`repairCorrupt`): `completed` stores the given result and keeps the row's
 * window (it completed before; the repair mends the stored text, it does not restart the window); `failed` /
 * `not-executed` expire it at once (`expiresAt = createdAt`), so the next claim replaces it.
 */
export function repairPatch(r: ResolveInput, row: Pick<DedupRow, 'createdAt' | 'expiresAt'>): Partial<DedupRow> {
  // Failed: a window of length 0 from the claim, already past on any clock the next claim reads (Redis's
  // extrapolated server clock may trail the application's `now`).
  return { ...resolvedPatch(r, row), expiresAt: r.as === 'completed' ? row.expiresAt : row.createdAt };
}

const idOf = (id: RowId): string => `${id.scope}\u0000${id.key}`;

/** Pending and compensating rows are unresolved: never replaced by a claim, even past `expires_at`. */
const UNRESOLVED = new Set(['pending', 'compensating']);
const replaceable = (row: { status: string; expiresAt: number }, now: number): boolean =>
  !UNRESOLVED.has(row.status) && row.expiresAt <= now;

function fencedPending<R extends { status: string; leaseToken: string | null }>(
  row: R | undefined,
  token: string,
  statuses: string[] = ['pending'],
): row is R {
  return row !== undefined && row.leaseToken === token && statuses.includes(row.status);
}

function createMemorySagaStore(): SagaStore {
  const rows = new Map<string, SagaRow>();
  const copy = (r: SagaRow | undefined): SagaRow | undefined => (r ? { ...r } : undefined);
  return {
    async claim(i: SagaClaimInput): Promise<ClaimResult<SagaRow>> {
      const existing = rows.get(idOf(i));
      if (existing && !replaceable(existing, i.now)) return { claimed: false, row: { ...existing } };
      const row = pendingSagaRow(i);
      rows.set(idOf(i), row);
      return { claimed: true, row: { ...row } };
    },
    async get(id) {
      return copy(rows.get(idOf(id)));
    },
    async transition(t: SagaTransition) {
      const row = rows.get(idOf(t));
      if (!fencedPending(row, t.leaseToken, t.from)) return false;
      row.status = t.to;
      if (t.externalId !== undefined) row.externalId = t.externalId;
      if (t.result !== undefined) row.result = t.result;
      if (t.error !== undefined) row.error = t.error;
      if (t.leaseMs !== undefined) row.leaseExpiresAt = t.now + t.leaseMs;
      row.updatedAt = t.now;
      return true;
    },
    async takeOver(t: TakeOverInput & { from: SagaStatus[] }) {
      const row = rows.get(idOf(t));
      if (!row || !t.from.includes(row.status) || row.leaseToken !== t.expectedToken || row.leaseExpiresAt > t.now) {
        return undefined;
      }
      Object.assign(row, { leaseToken: t.newToken, leaseExpiresAt: t.now + t.leaseMs, updatedAt: t.now });
      return { ...row };
    },
    async release(f: FencedInput) {
      const row = rows.get(idOf(f));
      return fencedPending(row, f.leaseToken) && rows.delete(idOf(f));
    },
    async renewLease(r: RenewInput) {
      const row = rows.get(idOf(r));
      if (!fencedPending(row, r.leaseToken, ['pending', 'compensating'])) return false;
      Object.assign(row, { leaseExpiresAt: r.now + r.leaseMs, updatedAt: r.now });
      return true;
    },
    async listStale(now, limit = 1000) {
      return [...rows.values()]
        .filter((r) => (r.status === 'pending' || r.status === 'compensating') && r.leaseExpiresAt <= now)
        .sort((a, b) => a.leaseExpiresAt - b.leaseExpiresAt)
        .slice(0, limit)
        .map((r) => ({ ...r }));
    },
  };
}

/** Reconcile's side of the table: damaged rows listed and repaired, expired rows pruned. */
function memoryUpkeep(rows: Map<string, DedupRow>): Pick<FullDedupStore, 'listCorrupt' | 'repairCorrupt' | 'prune'> {
  return {
    async listCorrupt(limit = 1000) {
      const out = [];
      for (const r of rows.values()) {
        const bad = corruptionOf({ ...r });
        if (bad) out.push(bad);
        if (out.length >= limit) break;
      }
      return out;
    },
    async repairCorrupt(r: RepairInput) {
      const row = rows.get(idOf(r));
      if (!row || row.status === 'pending' || row.result !== r.seen) return false;
      Object.assign(row, { result: null }, repairPatch(r, row));
      return true;
    },
    async prune(now) {
      let n = 0;
      for (const [id, r] of rows) {
        if (r.status !== 'pending' && r.expiresAt <= now) n += rows.delete(id) ? 1 : 0;
      }
      return n;
    },
  };
}

export function createMemoryStore(): FullDedupStore {
  const rows = new Map<string, DedupRow>();
  const sagas = new Map<string, SagaStore>();
  const update = (f: FencedInput, patch: Partial<DedupRow>, resolves = false): boolean => {
    const row = rows.get(idOf(f));
    if (!fencedPending(row, f.leaseToken)) return false;
    if (resolves) patch.expiresAt = windowEnd(row, f.now); // the window counts from the completion
    Object.assign(row, patch);
    return true;
  };
  return {
    async claim(i: ClaimInput): Promise<ClaimResult> {
      const existing = rows.get(idOf(i));
      if (existing && !replaceable(existing, i.now)) return { claimed: false, row: { ...existing } };
      const row = pendingRow(i, existing?.resolution ?? null);
      rows.set(idOf(i), row);
      return { claimed: true, row: { ...row } };
    },
    async get(id) {
      const row = rows.get(idOf(id));
      return row ? { ...row } : undefined;
    },
    async complete(c: CompleteInput) {
      return update(
        c,
        { status: 'completed', result: c.result, externalId: c.externalId ?? null, error: null, completedAt: c.now },
        true,
      );
    },
    async fail(f: FailInput) {
      return update(f, { status: 'failed', error: f.error, completedAt: f.now }, true);
    },
    async markUnknown(f: FailInput) {
      return update(f, { error: f.error, leaseExpiresAt: f.now });
    },
    async release(f: FencedInput) {
      return fencedPending(rows.get(idOf(f)), f.leaseToken) && rows.delete(idOf(f));
    },
    async resolve(r: ResolveInput) {
      const row = rows.get(idOf(r));
      if (row?.status !== 'pending' || row.leaseExpiresAt > r.now) return undefined;
      Object.assign(row, resolvedPatch(r, row));
      return { ...row };
    },
    async takeOver(t: TakeOverInput) {
      const row = rows.get(idOf(t));
      if (row?.status !== 'pending' || row.leaseToken !== t.expectedToken || row.leaseExpiresAt > t.now) {
        return undefined;
      }
      Object.assign(row, {
        leaseToken: t.newToken,
        leaseExpiresAt: t.now + t.leaseMs,
        attempts: row.attempts + 1,
        error: null,
      });
      return { ...row };
    },
    async renewLease(r: RenewInput) {
      return update(r, { leaseExpiresAt: r.now + r.leaseMs });
    },
    async listStale(now, limit = 1000) {
      return [...rows.values()]
        .filter((r) => r.status === 'pending' && r.leaseExpiresAt <= now)
        .sort((a, b) => a.leaseExpiresAt - b.leaseExpiresAt)
        .slice(0, limit)
        .map((r) => ({ ...r }));
    },
    ...memoryUpkeep(rows),
    saga(table = 'idemgen_saga') {
      let s = sagas.get(table);
      if (!s) {
        s = createMemorySagaStore();
        sagas.set(table, s);
      }
      return s;
    },
    async close() {
      rows.clear();
    },
  };
}
