/**
 * Typed errors of the idempotency runtime. Every error carries the key, the operation, the scope
 * and (when one exists) the stored row, so a caller or an operator can act on it without guessing
 * (docs/concepts.md#outcomes: "fail loudly"; docs/concepts.md#outcomes).
 */
import type { DedupRow } from './store-types.js';

export interface IdempotencyErrorContext {
  key: string;
  operation: string;
  scope: string;
  /** The stored row as the runtime saw it when it gave up. */
  state?: DedupRow | undefined;
}

/**
 * Whether a failed call's effect happened: `no` (certain: corrected, it may be sent again), `unknown`, or
 * `yes`. Every runtime error carries it with its `code` and `retrySameKey`, so the tool answer
 * (tools/outcome.ts `toToolError`) only puts them into words.
 */
export type Executed = 'no' | 'unknown' | 'yes';

export class IdempotencyError extends Error {
  /** Stable, machine-readable; each subclass names its own. */
  readonly code: string = 'idempotency_error';
  /** Did the effect happen? Unknown unless the subclass knows better (assuming "no" is the unsafe default). */
  readonly executed: Executed = 'unknown';
  /** May the same key be sent again? A new key is the one move that can repeat an effect, so yes by default. */
  readonly retrySameKey: boolean = true;
  readonly key: string;
  readonly operation: string;
  readonly scope: string;
  readonly state: DedupRow | undefined;

  constructor(message: string, ctx: IdempotencyErrorContext, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.key = ctx.key;
    this.operation = ctx.operation;
    this.scope = ctx.scope;
    this.state = ctx.state;
  }
}

/** Same key, different arguments: a caller bug (docs/concepts.md#changed-arguments). Never retried. */
export class IdempotencyConflictError extends IdempotencyError {
  override readonly code = 'idempotency_conflict';
  override readonly executed = 'no';
  override readonly retrySameKey = false;
}

/**
 * Another attempt holds a live lease on the key (409 / 425 analog); back off and retry later.
 * `retryAfterMs` / `retryAt`: when that lease runs out as the row says (a heartbeat may extend it, so
 * it is the earliest useful retry, not a promise); absent when the error has no row to read it from.
 */
export class IdempotencyInFlightError extends IdempotencyError {
  override readonly code = 'idempotency_in_flight';
  retryAfterMs?: number;
  retryAt?: Date;
}

/** The in-flight error with its retry hint: the lease's end as `row` states it, seen at `now`. */
export function inFlight(message: string, ctx: IdempotencyErrorContext, now: number): IdempotencyInFlightError {
  const err = new IdempotencyInFlightError(message, ctx);
  if (ctx.state !== undefined) {
    err.retryAfterMs = Math.max(0, ctx.state.leaseExpiresAt - now);
    err.retryAt = new Date(now + err.retryAfterMs);
  }
  return err;
}

/**
 * The dedup store could not be reached (refused, reset, a connect or command timeout) BEFORE the call
 * ran: no claim was made, nothing was executed; retry later with the same key. When the store fails
 * after the call ran (the completion could not be written) the error is `IdempotencyOutcomeUnknownError`
 * instead: the row stays pending for reconcile.
 */
export class IdempotencyStoreUnavailableError extends IdempotencyError {
  override readonly code = 'idempotency_store_unavailable';
  override readonly executed = 'no';
}

/**
 * A stored row or result that no longer parses (a truncated write, a hand edit, schema drift). The
 * call is not run and nothing is replayed; `idemgen reconcile` lists such rows and `--resolve` repairs
 * them. `text` is the unreadable value as stored (cut to 200 characters).
 */
export class IdempotencyRecordCorruptError extends IdempotencyError {
  override readonly code = 'idempotency_record_corrupt';
  readonly text: string;

  constructor(message: string, ctx: IdempotencyErrorContext, text: string, options?: { cause?: unknown }) {
    super(message, ctx, options);
    this.text = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  }
}

/**
 * The side effect may or may not have happened (a timeout or reset after the request left, a 5xx):
 * the one outcome-unknown error of every mechanism. Fail closed: a dedup-store call is never retried
 * automatically and `reconcileReport` lists the row (docs/concepts.md#outcomes); a native-key call throws it once its
 * same-key retries are used up (retry later with the same key: the server dedupes it).
 */
export class IdempotencyOutcomeUnknownError extends IdempotencyError {
  override readonly code = 'idempotency_outcome_unknown';
  /**
   * Set when the effect certainly happened but recording it failed (the store was unreachable):
   * what the call returned. The row stays pending, so a retry still fails closed.
   */
  result?: unknown;
}

/** The key is missing, too short/long or has characters a header cannot carry. */
export class IdempotencyKeyInvalidError extends IdempotencyError {
  override readonly code = 'idempotency_key_invalid';
  override readonly executed = 'no';
  override readonly retrySameKey = false;
}

/**
 * A late finisher: its lease expired and another attempt took the row over with a new fencing
 * token, so its completion was rejected. `result` holds what the late attempt got back.
 */
export class IdempotencyFencedError extends IdempotencyError {
  override readonly code = 'idempotency_fenced';
  override readonly executed = 'yes';
  result: unknown;
  /** Saga only: the late attempt's external id, recorded as an orphan for `reconcileSagas` to compensate. */
  externalId?: string;
}

/**
 * The call completed, but its result exceeded `maxResultBytes` and only a marker was stored:
 * a replay cannot return it. Thrown on replay only — the first caller always gets its result.
 */
export class IdempotencyResultTooLargeError extends IdempotencyError {
  override readonly code = 'idempotency_result_too_large';
  override readonly executed = 'yes';
  override readonly retrySameKey = false;
}

/**
 * The call completed, but its result could not be stored as JSON (a BigInt, a cycle, a throwing
 * `redact`): only a marker was stored. Thrown on replay only — the first caller got its result.
 */
export class IdempotencyResultUnencodableError extends IdempotencyError {
  override readonly code = 'idempotency_result_unencodable';
  override readonly executed = 'yes';
  override readonly retrySameKey = false;
}

/** A stored definite failure is being replayed (Stripe replays a saved 4xx the same way). */
export class IdempotencyFailedError extends IdempotencyError {
  override readonly code = 'idempotency_failed';
  override readonly retrySameKey = false;
}

/**
 * Marker: the request certainly never reached the point of execution (connection refused,
 * DNS failure, a local validation error). The state machine releases the row so a retry may run.
 */
export class IdempotencyNotSentError extends Error {
  readonly definiteFailure = true;
  readonly code: string = 'not_sent';
  readonly executed: Executed = 'no';
  readonly retrySameKey: boolean = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * A call refused before any request because an argument cannot be sent as given: a path value that is
 * empty or a dot segment (`.`, `..`, `%2e%2e`: URL parsing would move the request to another resource), a
 * header value a request cannot carry intact (CR/LF, control characters, edge whitespace), a body that
 * cannot be encoded. Nothing was sent, so a dedup row is released and a corrected call may reuse the key.
 */
export class InvalidArgumentsError extends IdempotencyNotSentError {
  override readonly code = 'invalid_arguments';
  /** Where in the request: `path.customer`, `header.X-Trace`, `body`, `url`. */
  readonly where: string;

  constructor(message: string, where: string, options?: { cause?: unknown }) {
    super(message, options);
    this.where = where;
  }
}

/**
 * @deprecated The one outcome-unknown type is {@link IdempotencyOutcomeUnknownError} (code
 * `idempotency_outcome_unknown`), thrown by every mechanism — a native-key call that used up its retries
 * included. This alias keeps `instanceof IdempotencyAmbiguousError` checks working (a deliberate
 * duplicate export: `@alias` tells knip so).
 * @alias
 */
export const IdempotencyAmbiguousError = IdempotencyOutcomeUnknownError;
/** @deprecated Use {@link IdempotencyOutcomeUnknownError}. */
export type IdempotencyAmbiguousError = IdempotencyOutcomeUnknownError;

/**
 * True only for errors that *declare* a definite failure before execution. Everything else is
 * ambiguous: assuming "it did not happen" is the unsafe default (docs/concepts.md#store-rules "don't trust a 504").
 */
export function isDefiniteFailure(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { definiteFailure?: unknown }).definiteFailure === true;
}
