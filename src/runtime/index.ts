/**
 * `idemgen/runtime` — the public API generated code and applications import. A leaf: nothing
 * here imports from the rest of idemgen (DESIGN §2).
 */
export { canonicalJson, hashArgs, sha256Hex } from './canonical-json.js';
export { callerKey, contentKey, intentKey, keySlotName, scopeString, validateKey } from './keys.js';
export type { IntentKeyInput, KeyLimits, KeyScope, StateSlot } from './keys.js';
export {
  IdempotencyAmbiguousError, IdempotencyConflictError, IdempotencyError, IdempotencyFailedError,
  IdempotencyFencedError, IdempotencyInFlightError, IdempotencyKeyInvalidError, IdempotencyNotSentError,
  IdempotencyOutcomeUnknownError, IdempotencyResultTooLargeError, IdempotencyResultUnencodableError, isDefiniteFailure,
} from './errors.js';
export { notExecuted } from './run-tag.js';
export type { RunTag } from './run-tag.js';
export type { IdempotencyErrorContext } from './errors.js';
export type {
  ClaimInput, ClaimResult, CompleteInput, DedupRow, DedupStatus, DedupStore, FailInput, FencedInput, RenewInput, ResolveInput, RowId,
  SagaClaimInput, SagaRow, SagaStatus, SagaStore, SagaTransition, StoreMechanism, TakeOverInput,
} from './store.js';
export { createMemoryStore } from './memory-store.js';
export { createSqliteStore } from './sqlite-store.js';
export type { SqliteStoreOptions } from './sqlite-store.js';
export { createPostgresStore } from './postgres-store.js';
export type { PostgresStoreOptions } from './postgres-store.js';
export { createRedisStore } from './redis-store.js';
export type { RedisStoreOptions } from './redis-store.js';
export type { RedisClientLike } from './redis-client.js';
export { openStore } from './open-store.js';
export { IdempotencyStoreSchemaError } from './sql-missing-table.js';
export { createIdempotency, RETRY_SAFE_MECHANISMS } from './idempotency.js';
export type { Idempotency, IdempotencyOptions, RunContext, RunRequest, RunResult } from './idempotency.js';
export { pruneExpired, reconcileReport, reconcileSagaReport, resolveUnknown } from './reconcile.js';
export type { ResolutionRecord, ResolveAs, ResolveOutcome, ResolveRequest, StaleRow, StaleSaga } from './reconcile.js';
export { shapeOf } from './args-summary.js';
export type { RecentSimilar, RecentSimilarOptions } from './recent-similar.js';
export type { Summarize } from './args-summary.js';
export type { CallOutcome } from './telemetry.js';
export { createHttpCaller, HttpStatusError } from './http.js';
export type {
  BodyType, HttpCaller, HttpCallerOptions, HttpRequest, HttpResponse, KeyCarrier, RawBody, ResponseType, RetryPolicy,
} from './http.js';
export { digestBlobs } from './binary.js';
export type { BinaryBody } from './binary.js';
export { encodeForm } from './http-body.js';
export { checkpoint, runSaga } from './saga.js';
export { compensateSaga, reconcileSagas } from './saga-reconcile.js';
export type { SagaReconcileOutcome } from './saga-reconcile.js';
export type { CheckpointRequest, ReconcileVerdict, SagaHandlers, SagaRequest, SagaResult } from './saga.js';
export * from './mcp/index.js';
export { externalIdOf, headersOf, httpErrorOf, nativeResult, needStore, resolveKey } from './client-support.js';
export type { CallerKey, CallOptions, HttpErrorOf, IntentScope, KeyOptions, NativeRunResult, NonEmptyScope, OmitKeyPath } from './client-support.js';
export * from './tools/index.js';
