/**
 * The `method-idempotent` mechanism (RFC 9110 §9.2.2): a DELETE of an addressed resource or a PUT that replaces
 * the resource at a client-chosen URI leaves the same state however often it arrives. So, with no key and no
 * store, an ambiguous outcome (timeout, connection reset, 5xx after the request left) is retried instead of
 * failing closed, and a DELETE whose retry finds the resource gone (404/410) after such an outcome is done:
 * the earlier attempt deleted it. A 404 on the first attempt, or after attempts that were definitely refused
 * (429, "not sent"), is still the API's answer. A retried PUT returns the final response.
 *
 * The HTTP call path asks the three questions below and nothing else, so the hook moves with it.
 */

const METHOD_IDEMPOTENT = 'method-idempotent';

/** Attempts for a call of this mechanism: the retry policy's for `method-idempotent`, else `undefined` (not ours). */
export function methodAttempts(mechanism: string, policyAttempts: number): number | undefined {
  return mechanism === METHOD_IDEMPOTENT ? Math.max(1, policyAttempts) : undefined;
}

/** A final status after which the request may have executed (5xx, 408); 429/425/409 were refused before. */
export function statusMayHaveExecuted(status: number): boolean {
  return status >= 500 || status === 408;
}

/**
 * A DELETE of this mechanism answered 404/410 on a retry after an attempt that may have executed: the
 * resource is gone because that attempt removed it, so the call is done (a replay, `wasReplay: true`).
 */
export function goneAfterAmbiguous(
  method: string,
  mechanism: string,
  status: number,
  ambiguousBefore: boolean,
): boolean {
  return (
    mechanism === METHOD_IDEMPOTENT &&
    ambiguousBefore &&
    method.toUpperCase() === 'DELETE' &&
    (status === 404 || status === 410)
  );
}
