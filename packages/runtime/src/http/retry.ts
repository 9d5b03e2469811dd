/**
 * Retry decisions for the HTTP caller: which failures are safe to repeat with the same key,
 * how long to wait, and whether a failure happened before or after the request left.
 */
import { IdempotencyNotSentError, IdempotencyOutcomeUnknownError } from '../core/errors.js';

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this ends the retries instead of parking the caller. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 5_000, maxRetryAfterMs: 60_000 };

/** RFC 9110 §5.6.7 IMF-fixdate, the only HTTP-date form a sender may generate. */
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * RFC 9110 §10.2.3: delay-seconds (a non-negative integer) or an HTTP-date. Anything else (`1.5`,
 * `-1`, `soon`, a date `Date.parse` would guess at) is ignored rather than misread.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!IMF_FIXDATE.test(trimmed)) return undefined;
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

/** Wording that ties an error to the idempotency key rather than to the business data. */
const IDEMPOTENCY_SIGNAL = /idempoten|request is outstanding/;
const IN_PROGRESS =
  /idempotency_key_in_use|request is outstanding|in progress|currently being processed|still being processed/;
const MISMATCH = /same parameters|different (payload|parameters|request)|mismatch|reused|does not match/;

/**
 * IETF draft-ietf-httpapi-idempotency-key-header §2.7: 409 = a request with this key is still
 * outstanding, 422 = the key was reused with a different payload. Stripe answers a payload mismatch
 * with 400 `idempotency_error` and in-flight with 409 `idempotency_key_in_use`. A 409 or 422 is also an
 * ordinary business answer ("already exists", "invalid field"), so each counts as a key signal only
 * when the body names idempotency (or, for 409, the server asks to come back with Retry-After, or the
 * request carried a key (`sentKey`) and the body says the request is in progress);
 * otherwise it is a plain definite `HttpStatusError`.
 */
export function classifyConflict(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  sentKey = false,
): ConflictKind {
  const text = errorText(body);
  const keyed = IDEMPOTENCY_SIGNAL.test(text);
  if (status === 422) return keyed ? 'mismatch' : null;
  if (status === 409) {
    if (keyed && MISMATCH.test(text) && !IN_PROGRESS.test(text)) return 'mismatch';
    // A request that carried a key and hears "in progress" is told its earlier twin is still running.
    if (((keyed || sentKey) && IN_PROGRESS.test(text)) || headers['retry-after'] !== undefined) return 'in-progress';
    return null;
  }
  if (status === 400 && /idempotency_error/.test(text)) return 'mismatch';
  return null;
}

/** Retried only when the same key makes the repeat harmless (the caller checks OP-1). */
export function isRetryableStatus(status: number, conflict: ConflictKind): boolean {
  return (
    status === 408 ||
    status === 425 ||
    status === 429 ||
    status >= 500 ||
    (status === 409 && conflict === 'in-progress')
  );
}

/**
 * Failures that happen before the first byte of the request is written (checked against real ones in
 * test/runtime/http/network-failures.test.ts): no connection (refused, no route, DNS), undici's connect
 * timeout, a request undici refuses to write (a header value with a control character), and a TLS
 * handshake that failed — the certificate was not trusted or the server does not speak TLS — since the
 * HTTP request is sent only after the handshake.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_INVALID_ARG',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  // OpenSSL certificate verification results, as node reports them.
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'HOSTNAME_MISMATCH',
]);

function errorCodes(err: unknown, depth = 0): string[] {
  if (typeof err !== 'object' || err === null || depth > 5) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown[] };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = [...(e.errors ?? []), e.cause].flatMap((x) => errorCodes(x, depth + 1));
  return [...own, ...nested];
}

/**
 * No connection, DNS failure, a refused header, a failed TLS handshake: the request never left, so nothing
 * executed. Everything else — a timeout, a reset, "other side closed" — may have reached the server after it
 * committed, so it is unknown.
 */
export function classifyTransportError(
  err: unknown,
  what: string,
  key = '',
): IdempotencyNotSentError | IdempotencyOutcomeUnknownError {
  const codes = errorCodes(err);
  if (codes.length > 0 && codes.every((c) => NOT_SENT_CODES.has(c))) {
    return new IdempotencyNotSentError(`${what}: not sent (${codes[0]})`, { cause: err });
  }
  const name = (err as { name?: string })?.name;
  const why =
    name === 'AbortError' || name === 'TimeoutError'
      ? 'timed out'
      : (codes[0] ?? String((err as Error)?.message ?? err));
  return new IdempotencyOutcomeUnknownError(
    `${what}: outcome unknown (${why})`,
    { key, operation: what, scope: '' },
    { cause: err },
  );
}
