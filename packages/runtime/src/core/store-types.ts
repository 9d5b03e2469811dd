/**
 * The dedup store contract (docs/concepts.md#outcomes, docs/contracts.md). One state machine, the same in every
 * store: `pending` → `completed` | `failed`, plus lease expiry. Every mutation after the claim is
 * fenced by the lease token, so a late finisher cannot overwrite a newer attempt.
 * Stores never create tables: the generated migration does (`idemgen generate`, sql/).
 */

/** Copied from src/classify/types.ts (the runtime is a leaf). `none` never reaches a store. */
export type StoreMechanism =
  | 'native-key'
  | 'dedup-table'
  | 'content-address'
  | 'unique-insert'
  | 'saga'
  | 'fail-closed';
export type DedupStatus = 'pending' | 'completed' | 'failed';

/** One row of the dedup table; times are epoch milliseconds. JSON columns hold JSON text. */
export interface DedupRow {
  scope: string;
  key: string;
  operation: string;
  argsHash: string;
  mechanism: StoreMechanism;
  status: DedupStatus;
  result: string | null;
  error: string | null;
  externalId: string | null;
  leaseToken: string | null;
  leaseExpiresAt: number;
  attempts: number;
  createdAt: number;
  completedAt: number | null;
  /**
   * When a resolved row stops counting: `completedAt` + the dedup window, set by `complete`/`fail`. A
   * pending row is governed by its lease, never by this (it is neither replaced nor pruned); until it
   * resolves `expiresAt − createdAt` holds the window's length, so completion can restart it.
   */
  expiresAt: number;
  /** JSON text: what the `summarize` hook kept of the arguments at claim time (reconcile shows it). */
  argsSummary: string | null;
  /** JSON text: the last operator resolution of an unknown outcome (`ResolutionRecord`); survives a re-claim. */
  resolution: string | null;
}

export interface RowId {
  scope: string;
  key: string;
}

/**
 * Times. Every input's `now` is the caller's clock (epoch ms). A store with a clock of its own — PostgreSQL,
 * MySQL/MariaDB and Redis, unless created with `clock: 'caller'` — ignores it and reads its server's clock
 * inside the statement or script, so two application servers whose clocks disagree still agree on every
 * lease and expiry. Memory and SQLite are single-host stores and use the caller's `now`.
 */
export interface ClaimInput extends RowId {
  operation: string;
  argsHash: string;
  mechanism: StoreMechanism;
  leaseToken: string;
  now: number;
  leaseMs: number;
  ttlMs: number;
  argsSummary?: string | null;
}

/**
 * `claimed: false` carries the row that won; the caller decides replay / wait / conflict. `now`: the
 * store's clock at the claim, when the store keeps its own; the caller judges the row's lease by it.
 */
export type ClaimResult<R = DedupRow> =
  | { claimed: true; row: R; now?: number }
  | { claimed: false; row: R; now?: number };

export interface FencedInput extends RowId {
  leaseToken: string;
  now: number;
}

/** Completion restarts the window: `completedAt = now`, `expiresAt = now + (expiresAt − createdAt)`. So does `fail`. */
export interface CompleteInput extends FencedInput {
  result: string | null;
  externalId?: string | null;
}

export interface FailInput extends FencedInput {
  error: string;
}

/** Heartbeat: extend the caller's own lease to `now + leaseMs`; fenced by the token. */
export interface RenewInput extends FencedInput {
  leaseMs: number;
}

/**
 * An operator's decision on an unknown outcome (reconcile). `completed` stores `result` for replay;
 * `failed` and `not-executed` free the key (the row becomes an expired `failed` row, so the next claim
 * replaces it and the retry runs). `resolution` is the JSON record of who/when/how/why.
 */
export interface ResolveInput extends RowId {
  as: 'completed' | 'failed' | 'not-executed';
  result?: string | null;
  error: string;
  resolution: string;
  now: number;
}

export interface TakeOverInput extends RowId {
  expectedToken: string | null;
  newToken: string;
  now: number;
  leaseMs: number;
}

/**
 * The minimal store: what `createIdempotency` (and everything built on it) calls on every run.
 * A custom store implements these nine methods; the capabilities below are optional extras.
 */
export interface DedupStore {
  /**
   * Insert a `pending` row atomically through the primary key (INSERT … ON CONFLICT DO NOTHING).
   * A completed/failed row past `expires_at` counts as absent and is replaced.
   */
  claim(input: ClaimInput): Promise<ClaimResult>;
  get(id: RowId): Promise<DedupRow | undefined>;
  /** `false` when the lease token no longer matches (fenced) or the row is not pending. */
  complete(input: CompleteInput): Promise<boolean>;
  /** A definite failure worth replaying; fenced like `complete`. */
  fail(input: FailInput): Promise<boolean>;
  /**
   * Outcome unknown: keep the row `pending`, store the error and expire the lease now, so
   * `listStale` sees it at once and a native-key retry may take it over with the same key.
   */
  markUnknown(input: FailInput): Promise<boolean>;
  /** Definite failure before execution: delete the pending row so a retry may run. Fenced. */
  release(input: FencedInput): Promise<boolean>;
  /** Native-key mechanisms only: re-lease an expired pending row under a new fencing token. */
  takeOver(input: TakeOverInput): Promise<DedupRow | undefined>;
  /** Lease heartbeat while the call runs; `false` once the token no longer owns a pending row. */
  renewLease(input: RenewInput): Promise<boolean>;
  close(): Promise<void>;
}

/** Capability: operator reconciliation of unknown outcomes (`reconcileReport`, `resolveUnknown`, `idemgen reconcile`). */
export interface ReconcileCapable {
  /** Pending rows whose lease has expired (reconcile). */
  listStale(now: number, limit?: number): Promise<DedupRow[]>;
  /**
   * Resolve a pending row whose lease has expired (nobody holds it); clears the lease token, so a
   * zombie attempt that wakes up later is fenced out. `undefined` when no such row exists.
   */
  resolve(input: ResolveInput): Promise<DedupRow | undefined>;
}

/**
 * A row whose stored text no longer parses (a truncated write, a hand edit): the result column on SQL,
 * the result or the whole value on Redis. Listed by `listCorrupt`, settled by `repairCorrupt`.
 */
export interface CorruptRow extends RowId {
  /** The row as far as it reads; absent when the row itself is unreadable (a Redis value). */
  row?: DedupRow;
  /** The unreadable text (cut to 200 characters) and why it does not parse. */
  text: string;
  reason: string;
  /** Opaque: what `repairCorrupt` compares before it writes (the damaged value as it was listed). */
  seen: string;
}

/**
 * An operator's repair of a corrupt row, compare-and-set on `seen`: `completed` overwrites the result with
 * `result` (retries replay it); `failed` / `not-executed` free the key like `resolve` does (an expired
 * `failed` row, or the row deleted when nothing of it reads).
 */
export interface RepairInput extends ResolveInput {
  seen: string;
}

/** Capability: find and repair unreadable rows (`corruptReport`, `repairCorrupt`, `idemgen reconcile`). */
export interface RepairCapable {
  /** Completed/failed rows whose stored result does not parse, at most `limit` (default 1000). */
  listCorrupt(limit?: number): Promise<CorruptRow[]>;
  /** `false` when the row is gone or no longer holds `seen`; Redis refuses `completed` for an unreadable row. */
  repairCorrupt(input: RepairInput): Promise<boolean>;
}

/** Capability: TTL expiry (`pruneExpired`, `idemgen prune`). */
export interface PruneCapable {
  /** Delete completed/failed rows past `expires_at`; unresolved pending rows are kept. */
  prune(now: number): Promise<number>;
}

/** Capability: the saga intent table on the same connection (`runSaga`, `reconcileSagas`). */
export interface SagaCapable {
  saga(table?: string): SagaStore;
}

/** Every built-in store (memory, SQLite, PostgreSQL, MySQL/MariaDB, Redis) has every capability. */
export type FullDedupStore = DedupStore & ReconcileCapable & PruneCapable & SagaCapable & RepairCapable;

type Capability = { saga: SagaCapable; reconcile: ReconcileCapable; prune: PruneCapable; repair: RepairCapable };
const METHODS: { [K in keyof Capability]: readonly string[] } = {
  saga: ['saga'],
  reconcile: ['listStale', 'resolve'],
  prune: ['prune'],
  repair: ['listCorrupt', 'repairCorrupt'],
};

/** Whether `store` has a capability (checked by method presence: stores are plain objects). */
export function hasCapability<K extends keyof Capability>(
  store: DedupStore,
  capability: K,
): store is DedupStore & Capability[K] {
  const s = store as unknown as Record<string, unknown>;
  return METHODS[capability].every((m) => typeof s[m] === 'function');
}

/** The store with the capability `what` needs, or a TypeError naming the missing methods. */
export function requireCapability<K extends keyof Capability>(
  store: DedupStore,
  capability: K,
  what: string,
): DedupStore & Capability[K] {
  if (hasCapability(store, capability)) return store;
  throw new TypeError(
    `${what} needs a store with ${METHODS[capability].join('() and ')}() (the ${capability} capability); ` +
      'the built-in stores have it, this custom store does not',
  );
}

export type SagaStatus = 'pending' | 'completed' | 'compensating' | 'compensated' | 'failed';

export interface SagaRow {
  scope: string;
  key: string;
  operation: string;
  argsHash: string;
  status: SagaStatus;
  externalId: string | null;
  compensationOperation: string | null;
  result: string | null;
  error: string | null;
  leaseToken: string | null;
  leaseExpiresAt: number;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
}

export interface SagaClaimInput extends RowId {
  operation: string;
  argsHash: string;
  compensationOperation: string | null;
  leaseToken: string;
  now: number;
  leaseMs: number;
  ttlMs: number;
}

export interface SagaTransition extends FencedInput {
  from: SagaStatus[];
  to: SagaStatus;
  externalId?: string | null;
  result?: string | null;
  error?: string | null;
  /** Re-lease for the next step (compensation, a re-run); omitted → lease left as is. */
  leaseMs?: number;
}

export interface SagaStore {
  claim(input: SagaClaimInput): Promise<ClaimResult<SagaRow>>;
  get(id: RowId): Promise<SagaRow | undefined>;
  /** Fenced status change; `false` if the token or the current status does not match. */
  transition(input: SagaTransition): Promise<boolean>;
  /** Re-lease a row in `from` status whose lease has expired (stale pending, a compensated orphan). */
  takeOver(input: TakeOverInput & { from: SagaStatus[] }): Promise<SagaRow | undefined>;
  release(input: FencedInput): Promise<boolean>;
  /** Lease heartbeat for a `pending` or `compensating` row the token owns. */
  renewLease(input: RenewInput): Promise<boolean>;
  listStale(now: number, limit?: number): Promise<SagaRow[]>;
}
