/** MCP tool-boundary dedup (docs/concepts.md#tool-dedup), part of `@idemgen/runtime`. */
export { withIdempotency } from './with-idempotency.js';
export type { WithIdempotencyOptions, WithMeta } from './with-idempotency.js';
export { ERROR_META, RECENT_SIMILAR_META, REPLAY_META } from './tool-result.js';
export type { MiddlewareErrorCode, ReplayMeta, ToolResultLike } from './tool-result.js';
export { createDedupWindow } from './window.js';
export type { DedupWindow, WindowEntry } from './window.js';
