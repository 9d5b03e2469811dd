/**
 * A store written the way a store author would, from the contract (packages/runtime/src/store/types.ts) alone: one
 * Map, rows copied in and out. With `fencing: false` it is the classic bug — `complete` trusts whoever
 * calls it and ignores the lease token — which the conformance vectors must catch.
 */
import type {
  ClaimInput,
  CompleteInput,
  DedupRow,
  DedupStore,
  FailInput,
  FencedInput,
  PruneCapable,
  ReconcileCapable,
  RenewInput,
  ResolveInput,
  RowId,
  TakeOverInput,
} from '../../../packages/runtime/src/index.js';

/** The dedup window counts from completion: the claim set `expiresAt = createdAt + ttl`, so the window is their difference. */
const windowFrom = (row: DedupRow, now: number): number => now + (row.expiresAt - row.createdAt);

export function createMapStore(opts: { fencing?: boolean } = {}): DedupStore & ReconcileCapable & PruneCapable {
  const fencing = opts.fencing ?? true;
  const rows = new Map<string, DedupRow>();
  const at = (id: RowId) => JSON.stringify([id.scope, id.key]);
  const owned = (f: FencedInput): DedupRow | undefined => {
    const row = rows.get(at(f));
    return row && row.status === 'pending' && row.leaseToken === f.leaseToken ? row : undefined;
  };
  const out = (row: DedupRow | undefined) => (row ? { ...row } : undefined);
  return {
    async claim(i: ClaimInput) {
      const old = rows.get(at(i));
      if (old && (old.status === 'pending' || old.expiresAt > i.now)) return { claimed: false, row: { ...old } };
      const row: DedupRow = {
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
        leaseExpiresAt: i.now + i.leaseMs,
        attempts: 1,
        createdAt: i.now,
        completedAt: null,
        expiresAt: i.now + i.ttlMs,
        argsSummary: i.argsSummary ?? null,
        resolution: old?.resolution ?? null,
      };
      rows.set(at(i), row);
      return { claimed: true, row: { ...row } };
    },
    async get(id: RowId) {
      return out(rows.get(at(id)));
    },
    async complete(c: CompleteInput) {
      // The broken variant: any caller may complete a pending row, whatever token it holds.
      const row = fencing ? owned(c) : rows.get(at(c));
      if (row?.status !== 'pending') return false;
      Object.assign(row, {
        status: 'completed',
        result: c.result,
        externalId: c.externalId ?? null,
        completedAt: c.now,
        expiresAt: windowFrom(row, c.now),
      });
      return true;
    },
    async fail(f: FailInput) {
      const row = owned(f);
      if (!row) return false;
      Object.assign(row, { status: 'failed', error: f.error, completedAt: f.now, expiresAt: windowFrom(row, f.now) });
      return true;
    },
    async markUnknown(f: FailInput) {
      const row = owned(f);
      if (!row) return false;
      Object.assign(row, { error: f.error, leaseExpiresAt: f.now });
      return true;
    },
    async release(f: FencedInput) {
      return owned(f) !== undefined && rows.delete(at(f));
    },
    async takeOver(t: TakeOverInput) {
      const row = rows.get(at(t));
      if (row?.status !== 'pending' || row.leaseToken !== t.expectedToken || row.leaseExpiresAt > t.now) {
        return undefined;
      }
      Object.assign(row, { leaseToken: t.newToken, leaseExpiresAt: t.now + t.leaseMs, attempts: row.attempts + 1 });
      row.error = null;
      return { ...row };
    },
    async renewLease(r: RenewInput) {
      const row = owned(r);
      if (row) row.leaseExpiresAt = r.now + r.leaseMs;
      return row !== undefined;
    },
    async listStale(now: number, limit = 100) {
      return [...rows.values()].filter((r) => r.status === 'pending' && r.leaseExpiresAt <= now).slice(0, limit);
    },
    async resolve(r: ResolveInput) {
      const row = rows.get(at(r));
      if (row?.status !== 'pending' || row.leaseExpiresAt > r.now) return undefined;
      row.leaseToken = null;
      row.completedAt = r.now;
      row.resolution = r.resolution;
      if (r.as === 'completed') {
        Object.assign(row, {
          status: 'completed',
          result: r.result ?? null,
          error: null,
          expiresAt: windowFrom(row, r.now),
        });
      } else Object.assign(row, { status: 'failed', error: r.error, expiresAt: r.now });
      return { ...row };
    },
    async prune(now: number) {
      let n = 0;
      for (const [k, r] of rows) if (r.status !== 'pending' && r.expiresAt <= now && rows.delete(k)) n++;
      return n;
    },
    async close() {},
  };
}
