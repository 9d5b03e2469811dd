/**
 * `@idemgen/runtime/support` — what generated clients import and nothing else: the engine they are typed
 * facades over (`createOperationEngine`, `OperationDescription`) and the key-option and result types their
 * method signatures name. Applications use the root entry.
 */
export { createOperationEngine, executeOperation } from './client/operation.js';
export type {
  ExecuteOptions,
  OperationClientOptions,
  OperationContext,
  OperationDescription,
  OperationEngine,
  OperationInput,
  OperationMechanism,
  OperationResult,
  WriteCallOptions,
} from './client/operation.js';
export { httpErrorOf } from './client/support.js';
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
export type { HttpCallerOptions } from './http/caller.js';
export type { RunResult } from './core/idempotency.js';
export type { DedupStore } from './store/types.js';
