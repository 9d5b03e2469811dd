/**
 * A failed tool call → the error the model reads: a stable code, whether the effect happened, and
 * whether the same key may be sent again. Only certainty says `executed: 'no'`: a definite 4xx, a request
 * that never left, a refused key (docs/concepts.md#outcomes: assuming "it did not happen" is the unsafe default).
 */
import {
  type Executed,
  IdempotencyInFlightError,
  IdempotencyNotSentError,
  IdempotencyOutcomeUnknownError,
  InvalidArgumentsError,
} from '../core/errors.js';
import { HttpStatusError } from '../http/caller.js';
import { parseApiError } from './api-error.js';
import { KEY_ARGUMENT } from './key-argument.js';
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

/** The runtime's error code where the model reads another (the two result errors are one answer to it). */
const TOOL_CODE: Readonly<Record<string, string>> = {
  idempotency_store_unavailable: 'store_unavailable',
  idempotency_result_too_large: 'idempotency_result_unavailable',
  idempotency_result_unencodable: 'idempotency_result_unavailable',
};

interface Facts {
  code: string;
  executed: Executed;
  retrySameKey: boolean;
}

const EXECUTED: ReadonlySet<unknown> = new Set(['no', 'unknown', 'yes']);

/**
 * What the error says about itself (core/errors.ts: `code`, `executed`, `retrySameKey`); an HTTP status
 * error by its `definiteFailure`; anything else declaring `definiteFailure: false` is an unknown outcome.
 */
function factsOf(err: unknown): Facts | undefined {
  if (err instanceof HttpStatusError)
    return err.definiteFailure
      ? { code: 'api_error', executed: 'no', retrySameKey: true }
      : { code: 'idempotency_outcome_unknown', executed: 'unknown', retrySameKey: true };
  const e = err as { code?: unknown; executed?: unknown; retrySameKey?: unknown; definiteFailure?: unknown } | null;
  if (typeof e?.code === 'string' && EXECUTED.has(e.executed) && typeof e.retrySameKey === 'boolean')
    return { code: TOOL_CODE[e.code] ?? e.code, executed: e.executed as Executed, retrySameKey: e.retrySameKey };
  if (e?.definiteFailure === false)
    return { code: 'idempotency_outcome_unknown', executed: 'unknown', retrySameKey: true };
  return undefined;
}

/** The API's own code and message, for a sentence: ` (HTTP 400, 21211: not a valid phone number)`. */
function httpDetail(http: HttpStatusError): string {
  const api = parseApiError(http.body);
  const detail = [api.code, api.message].filter((x) => x !== undefined).join(': ');
  return `HTTP ${http.status}${detail !== '' ? `, ${detail}` : ''}`;
}

interface Wording {
  err: unknown;
  http: HttpStatusError | undefined;
  retrySafe: boolean;
  keyArgument: string;
}

/** One sentence per code: the one wording of a failed write, whichever door (tool runtime, withIdempotency, code mode). */
const WRITE_WORDS: Readonly<Record<string, (w: Wording) => string>> = {
  api_error: ({ http }) =>
    `The API refused the request (${httpDetail(http!)}); nothing was executed. Correct the arguments and retry with the same key.`,
  invalid_arguments: ({ err }) =>
    `Invalid arguments, nothing was sent: ${describe(err)}. Correct them and call again (the same key may be reused).`,
  not_sent: ({ err }) =>
    `The request never reached the API (${describe(err)}); nothing was executed. Retry with the same key.`,
  idempotency_key_invalid: ({ err, keyArgument }) =>
    `Invalid ${keyArgument}: ${describe(err)}. Send a new key of printable ASCII characters (for example a UUID), created once for this action.`,
  idempotency_conflict: () =>
    'This key was already used with different arguments; nothing new was executed. Reuse a key only to retry the identical call; use a new key for a new action.',
  idempotency_in_flight: ({ err, http }) => {
    // The API's own answer (Stripe's 409 idempotency_key_in_use): the first request with this key is running there.
    if (http !== undefined)
      return `An earlier request with this key is still running at the API (HTTP ${http.status}): retry with the same key later to get its result; never switch to a new key.`;
    const ms = (err as IdempotencyInFlightError).retryAfterMs;
    const after = ms === undefined ? '' : ` Retry in about ${Math.ceil(ms / 1000)} s.`;
    return `A call with this key is still in progress; nothing new was executed.${after} Retry later with the same key to get its result; never switch to a new key.`;
  },
  store_unavailable: () =>
    'The idempotency store is unreachable, so the call was not made; nothing was executed. Retry later with the same key.',
  idempotency_record_corrupt: () =>
    'The record of an earlier call with this key is damaged, so it is neither replayed nor run again. An operator must repair it (idemgen reconcile); never retry with a new key.',
  idempotency_fenced: () =>
    'The call happened, but a retry took the key over while it ran. Retry with the same key to get the recorded result.',
  idempotency_result_unavailable: () =>
    'The call already happened (it is not run again), but its result was not stored. Do not retry it; use a read tool to look at the outcome.',
  idempotency_failed: ({ err }) => describe(err),
  idempotency_scope_unknown: ({ err }) => `Server configuration error: ${describe(err)}. Nothing was executed.`,
  // `retry_same_key` is true either way: the tool description tells the model to retry an unknown outcome with the
  // SAME key (docs/concepts.md#store-rules); `false` would read as "use a new key", the one move that can repeat the effect.
  idempotency_outcome_unknown: ({ err, retrySafe }) =>
    retrySafe
      ? `The outcome is unknown (${describe(err)}). Retry with the SAME key: the API deduplicates it, so it cannot happen twice.`
      : `The outcome is unknown (${describe(err)}) and it is not run again automatically (fail closed): the same key answers the same until an operator reconciles it. Never retry with a new key; check the outcome with a read tool or ask an operator.`,
};

/**
 * The one translator of a failed call into the error the model reads: the error's own facts (`code`,
 * `executed`, `retrySameKey`) and one sentence for its code. `retrySafe`: the downstream dedupes a repeat
 * of this key (native-key, content-address), so a same-key retry after an unknown outcome resolves it;
 * otherwise the retry answers the same until reconciled. `keyArgument` names the key in the words.
 */
export function toToolError(
  err: unknown,
  effect: 'read' | 'write',
  retrySafe: boolean,
  keyArgument = KEY_ARGUMENT,
): ToolCallError {
  const http = httpCause(err);
  if (effect === 'read') return readError(err, http);
  const facts = factsOf(err);
  const words = facts === undefined ? undefined : WRITE_WORDS[facts.code];
  if (facts === undefined || words === undefined)
    return {
      code: 'tool_error',
      executed: 'unknown',
      retry_same_key: false,
      message: `The tool failed: ${describe(err)}`,
    };
  const error: ToolCallError = {
    code: facts.code,
    executed: facts.executed,
    retry_same_key: facts.retrySameKey,
    message: words({ err, http: err instanceof HttpStatusError ? err : http, retrySafe, keyArgument }),
  };
  const ms = err instanceof IdempotencyInFlightError && http === undefined ? err.retryAfterMs : undefined;
  if (ms !== undefined) error.retry_after_ms = ms;
  return facts.code === 'api_error' || facts.code.startsWith('idempotency_') ? withApi(error, http) : error;
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
