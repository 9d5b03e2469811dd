/**
 * `@idemgen/runtime/support` — what generated code imports and nothing else: the engine generated clients are
 * typed facades over (`createOperationEngine`, `OperationDescription`), the key-option and result types their
 * method signatures name, and the helpers generated handlers and MCP modules call. Not a user API: names here
 * may change with the generator. A plain list of re-exports; what applications call is at the package root.
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
export { externalIdOf, headersOf, nativeResult, needStore, resolveKey } from './client/support.js';
export { digestBlobs } from './core/binary.js';
export { encodeForm } from './http/body.js';
export { canonicalJson, hashArgs, sha256Hex } from './core/canonical-json.js';
export { keySlotName, scopeString } from './core/keys.js';
export { shapeOf } from './core/args-summary.js';
export { hasCapability, requireCapability } from './store/types.js';
export { RETRY_SAFE_MECHANISMS } from './core/mechanism.js';
export {
  ERROR_META,
  RECENT_SIMILAR_META,
  REPLAYABLE_META,
  REPLAY_META,
  errorResult,
  recentSimilarResult,
  replayResult,
} from './mcp/tool-result.js';
export { decodeArguments } from './tools/decode.js';
export { parseApiError } from './tools/api-error.js';
export { toToolError } from './tools/outcome.js';
