/**
 * `@idemgen/runtime/support`: the helpers only generated code calls (key resolution, result shaping, the
 * MCP result builders, argument decoding). Not a user API: names here may change with the generator. A plain
 * list of re-exports; what applications call is at the package root.
 */
export { externalIdOf, headersOf, httpErrorOf, nativeResult, needStore, resolveKey } from './client/support.js';
export { digestBlobs } from './http/binary.js';
export { encodeForm } from './http/body.js';
export { canonicalJson, hashArgs, sha256Hex } from './core/canonical-json.js';
export { keySlotName, scopeString } from './core/keys.js';
export { shapeOf } from './core/args-summary.js';
export { hasCapability, requireCapability } from './store/types.js';
export { RETRY_SAFE_MECHANISMS } from './core/idempotency.js';
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
