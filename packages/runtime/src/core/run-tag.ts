/**
 * Which thrown errors the state machine may trust as "nothing executed" (docs/concepts.md#outcomes, docs/concepts.md#store-rules "don't
 * trust a 504"). Releasing a row on a false "not sent" lets a retry repeat an effect that already
 * happened, so the proof must come from the one place that knows: the HTTP caller that sent the
 * *only* request of this run. Each run hands its callback a fresh tag (in `RunContext`); the caller
 * counts the requests made with it and stamps its definite failures with it. An error from a second
 * request, a nested run, or user code without the tag is ambiguous. The one explicit escape is
 * `notExecuted(err)`: the application vouching that it failed before any effect (input validation).
 */
import { IdempotencyConflictError, isDefiniteFailure } from './errors.js';

const STAMP = Symbol('idemgen.runTag');
const NOT_EXECUTED = Symbol('idemgen.notExecuted');

/** Opaque per-run token; pass the whole `RunContext` as `run` to `HttpCaller.send`. */
export interface RunTag {
  readonly runTag: true;
}

interface TagState extends RunTag {
  requests: number;
}

export function createRunTag(): RunTag {
  const tag: TagState = { runTag: true, requests: 0 };
  return tag;
}

/** The HTTP caller registers every request sent under a run's tag. */
export function noteRequest(tag: RunTag | undefined): void {
  if (tag) (tag as TagState).requests += 1;
}

function mark(err: unknown, symbol: symbol, value: unknown): void {
  if (typeof err !== 'object' || err === null) return;
  Object.defineProperty(err, symbol, { value, enumerable: false, configurable: true });
}

/** Stamp an error the HTTP caller produced for the request it sent under `tag`. */
export function stampForRun<E>(err: E, tag: RunTag | undefined): E {
  if (tag) mark(err, STAMP, tag);
  return err;
}

/**
 * Declare that `err` happened before any side effect (a validation failure in the tool handler): the
 * dedup row is released so a corrected retry may run. Only for failures that are certain; an error
 * thrown after an effect and marked this way lets a retry repeat that effect.
 */
export function notExecuted<E>(err: E): E {
  mark(err, NOT_EXECUTED, true);
  if (typeof err === 'object' && err !== null && !('definiteFailure' in err)) {
    Object.defineProperty(err, 'definiteFailure', { value: true, enumerable: false, configurable: true });
  }
  return err;
}

/**
 * True only for an explicit `notExecuted` error, or a definite failure / server-side key conflict the
 * HTTP caller stamped with this run's tag while this run had sent exactly one request.
 */
export function trustedNotExecuted(err: unknown, tag: RunTag): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as Record<symbol, unknown>;
  if (e[NOT_EXECUTED] === true) return true;
  if (e[STAMP] !== tag || (tag as TagState).requests !== 1) return false;
  return isDefiniteFailure(err) || err instanceof IdempotencyConflictError;
}
