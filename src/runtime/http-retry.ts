/**
 * Retry decisions for the HTTP caller: which failures are safe to repeat with the same key,
 * how long to wait, and whether a failure happened before or after the request left.
 */
import { IdempotencyAmbiguousError, IdempotencyNotSentError } from './errors.js';

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this ends the retries instead of parking the caller. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 5_000, maxRetryAfterMs: 60_000 };

/** RFC 9110 §10.2.3: delay-seconds or an HTTP-date. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** "Full jitter" exponential backoff (AWS Architecture Blog, 2015): spreads a thundering herd. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * cap);
}

export type ConflictKind = 'in-progress' | 'mismatch' | null;

function errorText(body: unknown): string {
  if (typeof body === 'string') return body.toLowerCase();
  try {
    return JSON.stringify(body ?? '').toLowerCase();
  } catch {
    return '';
  }
}

/**
 * IETF draft-ietf-httpapi-idempotency-key-header §2.7: 409 = a request with this key is still
 * being processed, 422 = the key was reused with a different payload. Stripe answers a payload
 * mismatch with 400 `idempotency_error` and in-flight with 409 `idempotency_key_in_use`.
 */
export function classifyConflict(status: number, body: unknown): ConflictKind {
  const text = errorText(body);
  const mismatch = /same parameters|different (payload|parameters|request)|mismatch|reused|does not match/.test(text);
  if (status === 422) return mismatch || /idempoten/.test(text) || text === '' ? 'mismatch' : null;
  if (status === 409) return mismatch ? 'mismatch' : 'in-progress';
  if (status === 400 && /idempotency_error/.test(text)) return 'mismatch';
  return null;
}

/** Retried only when the same key makes the repeat harmless (the caller checks OP-1). */
export function isRetryableStatus(status: number, conflict: ConflictKind): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500 || (status === 409 && conflict === 'in-progress');
}

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCodes(err: unknown, depth = 0): string[] {
  if (typeof err !== 'object' || err === null || depth > 5) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown[] };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = [...(e.errors ?? []), e.cause].flatMap((x) => errorCodes(x, depth + 1));
  return [...own, ...nested];
}

/**
 * Connection refused / DNS failure: the request never left, so nothing executed. Everything
 * else — timeout, reset, "other side closed" — may have reached the server after it committed.
 */
export function classifyTransportError(err: unknown, what: string): IdempotencyNotSentError | IdempotencyAmbiguousError {
  const codes = errorCodes(err);
  if (codes.length > 0 && codes.every((c) => NOT_SENT_CODES.has(c))) {
    return new IdempotencyNotSentError(`${what}: not sent (${codes[0]})`, { cause: err });
  }
  const name = (err as { name?: string })?.name;
  const why = name === 'AbortError' || name === 'TimeoutError' ? 'timed out' : codes[0] ?? String((err as Error)?.message ?? err);
  return new IdempotencyAmbiguousError(`${what}: outcome unknown (${why})`, { cause: err });
}
