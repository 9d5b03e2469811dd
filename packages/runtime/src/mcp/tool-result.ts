/**
 * MCP `CallToolResult` shapes the middleware returns. Structural types only: the runtime must not
 * depend on @modelcontextprotocol/sdk (a leaf with a stable API, docs/concepts.md#layers); they match its
 * `CallToolResult` (MCP 2025-11-25 `tools/call`). Errors the model can act on are *tool results* with
 * `isError: true` (MCP: tool execution errors are reported in the result, so the model sees them),
 * not JSON-RPC errors.
 */
export interface ToolResultLike {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [extra: string]: unknown;
}

/** `_meta` key of the replay marker (MCP `_meta` keys use a `prefix/` namespace). */
export const REPLAY_META = 'idemgen/replay';
/** `_meta` key of the repeated-intent soft guard's note: `{ called_at, key }` of the similar call that completed recently. */
export const RECENT_SIMILAR_META = 'idemgen/recent_similar';
/** `_meta` key of a middleware error's machine-readable code. */
export const ERROR_META = 'idemgen/error';

export interface ReplayMeta {
  wasReplay: true;
  /**
   * ISO 8601 time of the original call (docs/concepts.md#replay: surface replay status to the model); absent
   * when it is not known (a native-key replay the API marked by a header only).
   */
  originalCalledAt?: string;
  /** How the replay was recognised: `store`, `header:<name>`, `created-before-send`, `gone-after-retry`. */
  replayEvidence?: string;
}

export type MiddlewareErrorCode =
  | 'idempotency_key_missing'
  | 'idempotency_key_invalid'
  | 'idempotency_conflict'
  | 'idempotency_in_flight'
  | 'idempotency_outcome_unknown'
  | 'idempotency_failed'
  | 'idempotency_result_unavailable'
  | 'idempotency_fenced'
  | 'idempotency_scope_unknown'
  | 'idempotency_record_corrupt'
  | 'intent_invalid'
  | 'intent_missing'
  | 'store_unavailable'
  | 'api_error'
  | 'invalid_arguments'
  | 'not_sent'
  | 'tool_error'
  /** No longer answered: an unexpected handler error is `tool_error`, as in the tool runtime. */
  | 'idempotency_error';

/** `_meta` key set (to `false`) on a first result the store could not keep: a retry cannot replay it. */
export const REPLAYABLE_META = 'idemgen/replayable';

/**
 * `extra`: more machine-readable fields next to the code: a runtime error's `executed` and `retry_same_key`
 * (tools/outcome.ts `toToolError`), `retry_after_ms` of an in-flight call, the API's `status`/`api_code`.
 */
export function errorResult(
  code: MiddlewareErrorCode,
  message: string,
  extra?: Record<string, unknown>,
): ToolResultLike {
  return { content: [{ type: 'text', text: message }], isError: true, _meta: { [ERROR_META]: { code, ...extra } } };
}

/** A first result the store could not keep, marked so in `_meta` (a retry gets an error, not this result). */
export function unreplayable<R extends ToolResultLike>(result: R): R {
  return { ...result, _meta: { ...(result._meta ?? {}), [REPLAYABLE_META]: false } };
}

/** The stored result, unchanged but for the replay marker in `_meta`. */
export function replayResult<R extends ToolResultLike>(stored: R, calledAt: Date): R {
  const meta: ReplayMeta = { wasReplay: true, originalCalledAt: calledAt.toISOString(), replayEvidence: 'store' };
  return { ...stored, _meta: { ...(stored._meta ?? {}), [REPLAY_META]: meta } };
}

/**
 * A new intent that repeats one completed moments ago (docs/concepts.md#repeated-intent): the result is unchanged but for a note
 * the model reads (it only sees `content`) and the same facts in `_meta`. The call already ran, so the
 * note asks the model not to send a third one and to tell the user, rather than to undo anything.
 */
export function recentSimilarResult<R extends ToolResultLike>(
  result: R,
  similar: { calledAt: Date; key: string },
  now: number,
  keyArgument: string,
): R {
  const seconds = Math.max(0, Math.round((now - similar.calledAt.getTime()) / 1000));
  const note =
    `Note: a similar call (same tool, same target) completed ${seconds} s ago with ${keyArgument} ` +
    `${JSON.stringify(similar.key)}; this one ran as a new request. If the user did not ask for it twice, ` +
    'do not call it again: tell the user it was done twice.';
  const meta = { called_at: similar.calledAt.toISOString(), key: similar.key };
  return {
    ...result,
    content: [...(Array.isArray(result.content) ? result.content : []), { type: 'text', text: note }],
    _meta: { ...(result._meta ?? {}), [RECENT_SIMILAR_META]: meta },
  };
}
