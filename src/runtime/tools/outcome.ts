/**
 * A failed tool call → the error the model reads: a stable code, whether the effect happened, and
 * whether the same key may be sent again. Only certainty says `executed: 'no'`: a definite 4xx, a request
 * that never left, a refused key (docs/concepts.md#outcomes: assuming "it did not happen" is the unsafe default).
 */
import {
  IdempotencyConflictError,
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
} from '../core/errors.js';
import { HttpStatusError } from '../http/caller.js';
import { parseApiError } from './api-error.js';
import type { ToolCallError, ToolOutcome } from './types.js';
import type { ArgumentIssue } from './validate.js';

function httpCause(err: unknown): HttpStatusError | undefined {
  for (let e = err, i = 0; e !== undefined && e !== null && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if (e instanceof HttpStatusError) return e;
  }
  return undefined;
}

function withApi(error: ToolCallError, http: HttpStatusError | undefined): ToolCallError {
  if (http === undefined) return error;
  const api = parseApiError(http.body);
  error.status = http.status;
  if (api.code !== undefined) error.api_code = api.code;
  if (api.message !== undefined) error.api_message = api.message;
  return error;
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A read has no key and no effect: its messages say whether to call again, never which key to use. */
function readError(err: unknown, http: HttpStatusError | undefined): ToolCallError {
  if (err instanceof InvalidArgumentsError) {
    return {
      code: 'invalid_arguments',
      executed: 'no',
      retry_same_key: true,
      message: `Invalid arguments, nothing was sent: ${err.message}. Correct them and call again.`,
    };
  }
  if (err instanceof IdempotencyNotSentError) {
    return {
      code: 'not_sent',
      executed: 'no',
      retry_same_key: true,
      message: `The request never reached the API (${err.message}). It may be called again.`,
    };
  }
  if (http?.definiteFailure === true) {
    return withApi(
      {
        code: 'api_error',
        executed: 'no',
        retry_same_key: true,
        message: `The API refused the read (HTTP ${http.status}). Check the arguments (for example the id) before calling again.`,
      },
      http,
    );
  }
  if (
    http !== undefined ||
    err instanceof IdempotencyOutcomeUnknownError ||
    (err as { definiteFailure?: unknown })?.definiteFailure === false
  ) {
    return withApi(
      {
        code: 'api_error',
        executed: 'no',
        retry_same_key: true,
        message: `The read failed: ${describe(err)}. It may be called again.`,
      },
      http,
    );
  }
  return { code: 'tool_error', executed: 'no', retry_same_key: true, message: `The read failed: ${describe(err)}` };
}

/**
 * `retrySafe`: the downstream dedupes a repeat of this key (native-key, content-address), so a
 * same-key retry after an unknown outcome resolves it; otherwise the retry answers the same until reconciled.
 */
export function toToolError(err: unknown, effect: 'read' | 'write', retrySafe: boolean): ToolCallError {
  const http = httpCause(err);
  if (effect === 'read') return readError(err, http);
  if (err instanceof HttpStatusError && err.definiteFailure) {
    return withApi(
      {
        code: 'api_error',
        executed: 'no',
        retry_same_key: true,
        message: `The API refused the request (HTTP ${err.status}); nothing was executed. Correct the arguments and retry with the same key.`,
      },
      err,
    );
  }
  if (err instanceof InvalidArgumentsError) {
    return {
      code: 'invalid_arguments',
      executed: 'no',
      retry_same_key: true,
      message: `Invalid arguments, nothing was sent: ${err.message}. Correct them and call again (the same key may be reused).`,
    };
  }
  if (err instanceof IdempotencyNotSentError) {
    return {
      code: 'not_sent',
      executed: 'no',
      retry_same_key: true,
      message: `The request never reached the API (${err.message}); nothing was executed. Retry with the same key.`,
    };
  }
  if (err instanceof IdempotencyInFlightError && http !== undefined) {
    // The API's own answer (Stripe's 409 idempotency_key_in_use): the first request with this key is running there.
    return withApi(
      {
        code: 'idempotency_in_flight',
        executed: 'unknown',
        retry_same_key: true,
        message: `An earlier request with this key is still running at the API (HTTP ${http.status}): retry with the same key later to get its result; never switch to a new key.`,
      },
      http,
    );
  }
  if (err instanceof IdempotencyKeyInvalidError) {
    return {
      code: 'idempotency_key_invalid',
      executed: 'no',
      retry_same_key: false,
      message: `${err.message}. Send a new key of printable ASCII characters (for example a UUID), created once for this action.`,
    };
  }
  if (err instanceof IdempotencyConflictError) {
    return withApi(
      {
        code: 'idempotency_conflict',
        executed: 'no',
        retry_same_key: false,
        message:
          'This key was already used with different arguments; nothing new was executed. Reuse a key only to retry the identical call; use a new key for a new action.',
      },
      http,
    );
  }
  if (err instanceof IdempotencyInFlightError) {
    const after = err.retryAfterMs === undefined ? '' : ` Retry in about ${Math.ceil(err.retryAfterMs / 1000)} s.`;
    return {
      code: 'idempotency_in_flight',
      executed: 'unknown',
      retry_same_key: true,
      ...(err.retryAfterMs === undefined ? {} : { retry_after_ms: err.retryAfterMs }),
      message: `A call with this key is still in progress.${after} Retry later with the same key to get its result; never switch to a new key.`,
    };
  }
  if (err instanceof IdempotencyStoreUnavailableError) {
    return {
      code: 'store_unavailable',
      executed: 'no',
      retry_same_key: true,
      message:
        'The idempotency store is unreachable, so the call was not made; nothing was executed. Retry later with the same key.',
    };
  }
  if (err instanceof IdempotencyRecordCorruptError) {
    return {
      code: 'idempotency_record_corrupt',
      executed: 'unknown',
      retry_same_key: true,
      message:
        'The record of an earlier call with this key is damaged, so it is neither replayed nor run again. An operator must repair it; never retry with a new key.',
    };
  }
  if (err instanceof IdempotencyFencedError) {
    return {
      code: 'idempotency_fenced',
      executed: 'yes',
      retry_same_key: true,
      message:
        'The call happened, but a retry took the key over while it ran. Retry with the same key to get the recorded result.',
    };
  }
  if (err instanceof IdempotencyResultTooLargeError || err instanceof IdempotencyResultUnencodableError) {
    return {
      code: 'idempotency_result_unavailable',
      executed: 'yes',
      retry_same_key: false,
      message:
        'The call already happened (it is not run again), but its result was not stored. Use a read tool to look at the outcome.',
    };
  }
  if (err instanceof IdempotencyFailedError) {
    return { code: 'idempotency_failed', executed: 'unknown', retry_same_key: false, message: err.message };
  }
  const ambiguous =
    err instanceof IdempotencyOutcomeUnknownError ||
    err instanceof HttpStatusError ||
    (err as { definiteFailure?: unknown })?.definiteFailure === false;
  if (ambiguous) {
    // Always `true`: the tool description tells the model to retry an unknown outcome with the SAME key
    // (docs/concepts.md#store-rules); `false` would read as "use a new key", the one move that can repeat the effect.
    return withApi(
      {
        code: 'idempotency_outcome_unknown',
        executed: 'unknown',
        retry_same_key: true,
        message: retrySafe
          ? `The outcome is unknown (${describe(err)}). Retry with the SAME key: the API deduplicates it, so it cannot happen twice.`
          : `The outcome is unknown (${describe(err)}) and it is not run again automatically (fail closed): the same key answers the same until an operator reconciles it. Never retry with a new key; check the outcome with a read tool or ask an operator.`,
      },
      http,
    );
  }
  return {
    code: 'tool_error',
    executed: 'unknown',
    retry_same_key: false,
    message: `The tool failed: ${describe(err)}`,
  };
}

/** Arguments refused before anything ran (unparseable JSON, schema issues): the same key may be reused. */
export function invalidArguments(message: string, issues?: ArgumentIssue[]): ToolOutcome {
  return {
    ok: false,
    error: {
      code: 'invalid_arguments',
      executed: 'no',
      retry_same_key: true,
      ...(issues !== undefined ? { issues } : {}),
      message,
    },
  };
}
