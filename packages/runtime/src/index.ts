/**
 * `@idemgen/runtime` — the public API generated code and applications import. A leaf: nothing
 * here imports from the rest of idemgen (docs/concepts.md#layers).
 */
export { callerKey, contentKey, intentKey, validateKey } from './core/keys.js';
export type { IntentKeyInput, KeyLimits, KeyScope, StateSlot } from './core/keys.js';
export {
  IdempotencyAmbiguousError,
  IdempotencyConflictError,
  IdempotencyError,
  IdempotencyFailedError,
  IdempotencyFencedError,
  IdempotencyInFlightError,
  IdempotencyKeyInvalidError,
  IdempotencyNotSentError,
  IdempotencyOutcomeUnknownError,
  IdempotencyRecordCorruptError,
  IdempotencyResultTooLargeError,
  IdempotencyResultUnencodableError,
  InvalidArgumentsError,
  IdempotencyStoreUnavailableError,
  isDefiniteFailure,
} from './core/errors.js';
export { notExecuted } from './core/run-tag.js';
export type { RunTag } from './core/run-tag.js';
export type { LegacyMechanism, MechanismInput } from './core/mechanism.js';
export type { IdempotencyErrorContext } from './core/errors.js';
export type {
  ClaimInput,
  ClaimResult,
  CompleteInput,
  CorruptRow,
  DedupRow,
  DedupStatus,
  DedupStore,
  FailInput,
  FencedInput,
  FullDedupStore,
  PruneCapable,
  ReconcileCapable,
  RenewInput,
  RepairCapable,
  RepairInput,
  ResolveInput,
  RowId,
  SagaCapable,
  SagaClaimInput,
  SagaRow,
  SagaStatus,
  SagaStore,
  SagaTransition,
  StoreMechanism,
  TakeOverInput,
} from './store/types.js';
export { createMemoryStore } from './store/memory.js';
// The driver stores are entry points of their own (`@idemgen/runtime/sqlite`, `/postgres`, `/mysql`,
// `/redis`) that import their driver statically; this entry imports none of them.
export { openStore } from './store/open.js';
export { checkStoreTables, migrateStore } from './store/migrate.js';
export type { StoreTablesDdl } from './store/migrate.js';
export { IdempotencyStoreSchemaError } from './store/sql/missing-table.js';
export { createIdempotency } from './core/idempotency.js';
export type { Idempotency, IdempotencyOptions, RunContext, RunRequest, RunResult } from './core/idempotency.js';
export {
  corruptReport,
  pruneExpired,
  reconcileReport,
  reconcileSagaReport,
  resolveUnknown,
} from './core/reconcile.js';
export type { StoreTimeouts } from './store/timeouts.js';
export type {
  ResolutionRecord,
  ResolveAs,
  ResolveOutcome,
  ResolveRequest,
  StaleRow,
  StaleSaga,
} from './core/reconcile.js';
export type { RecentSimilar, RecentSimilarOptions } from './core/recent-similar.js';
export type { Summarize } from './core/args-summary.js';
export type { CallOutcome } from './core/telemetry.js';
export { createHttpCaller, HttpStatusError } from './http/caller.js';
export type {
  BodyType,
  HttpCaller,
  HttpCallerOptions,
  HttpRequest,
  HttpResponse,
  KeyCarrier,
  QueryStyle,
  RawBody,
  ResponseType,
  RetryPolicy,
} from './http/caller.js';
export type { BinaryBody } from './core/binary.js';
export { checkpoint, runSaga } from './saga/run.js';
export { compensateSaga, reconcileSagas } from './saga/reconcile.js';
export { verifyPending, type VerifyDecision, type VerifyPendingOptions } from './verify/reconcile.js';
export type { SettleCall } from './verify/lookup.js';
export type { LookupRead, SettleOptions, Verdict, VerificationPlan } from './verify/types.js';
export type { SagaReconcileOutcome } from './saga/reconcile.js';
export type { CheckpointRequest, ReconcileVerdict, SagaHandlers, SagaRequest, SagaResult } from './saga/run.js';
export { createDedupWindow, withIdempotency } from './mcp/index.js';
export type {
  DedupWindow,
  MiddlewareErrorCode,
  ReplayMeta,
  ToolResultLike,
  WindowEntry,
  WithIdempotencyOptions,
  WithMeta,
} from './mcp/index.js';
export type {
  CallerKey,
  CallOptions,
  HttpErrorOf,
  IntentScope,
  KeyOptions,
  NativeRunResult,
  NonEmptyScope,
  OmitKeyPath,
} from './client/support.js';
