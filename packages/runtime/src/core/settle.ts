/**
 * How a run of the state machine ends (docs/concepts.md#outcomes, docs/concepts.md): record the result, the failure, or
 * the fact that nobody knows. Every store write here can itself fail; the caller then learns what it
 * needs — the original error, or the live result — wrapped in `IdempotencyOutcomeUnknownError`.
 */
import { IdempotencyFencedError, IdempotencyOutcomeUnknownError, type IdempotencyErrorContext } from './errors.js';
import { trustedNotExecuted, type RunTag } from './run-tag.js';
import type { DedupRow, DedupStore, StoreMechanism } from './store-types.js';
import { RETRY_SAFE_MECHANISMS } from './mechanism.js';
import { encodeError, encodeResult, encodeResultNow, unencodableMarker } from './stored-value.js';

export interface Settle {
  store: DedupStore;
  now: () => number;
  maxResultBytes: number;
  redact?: ((result: unknown, info: { operation: string; key: string }) => unknown) | undefined;
  operation: string;
  mechanism: StoreMechanism;
  id: { scope: string; key: string; leaseToken: string };
  ctx: (row?: DedupRow) => IdempotencyErrorContext;
}

type Outcome = 'released' | 'failed' | 'unknown';

async function record(s: Settle, tag: RunTag, err: unknown): Promise<Outcome> {
  const id = { ...s.id, now: s.now() };
  if (trustedNotExecuted(err, tag)) {
    await s.store.release(id); // nothing executed: a retry may run (docs/concepts.md#outcomes)
    return 'released';
  }
  if ((err as { finalFailure?: unknown })?.finalFailure === true) {
    await s.store.fail({ ...id, error: encodeError(err, 'failed') });
    return 'failed';
  }
  // Ambiguous: keep the row pending with an expired lease so reconcile sees it at once.
  await s.store.markUnknown({ ...id, error: encodeError(err, 'unknown') });
  return 'unknown';
}

export async function onFailure(s: Settle, row: DedupRow, tag: RunTag, err: unknown): Promise<never> {
  let outcome: Outcome;
  try {
    outcome = await record(s, tag, err);
  } catch (storeErr) {
    // The store could not record the failure: what the call did is unknown to the store, and the
    // caller's cause must be the call's error, not the database's (which is named in the message).
    throw new IdempotencyOutcomeUnknownError(
      `${s.operation} failed and recording the failure failed too (${describe(storeErr)}); outcome unknown`,
      s.ctx(row),
      { cause: err },
    );
  }
  if (outcome !== 'unknown' || RETRY_SAFE_MECHANISMS.has(s.mechanism)) throw err; // same-key retry is safe
  throw new IdempotencyOutcomeUnknownError(
    `${s.operation} may or may not have happened; not retrying (fail closed)`,
    s.ctx({ ...row, error: encodeError(err, 'unknown') }),
    { cause: err },
  );
}

/**
 * The stored copy: redacted and capped, or a marker when it has no JSON text. Never throws (nor
 * rejects). A plain string unless bytes may be inside: no promise per call in the common case.
 */
function storedText(s: Settle, result: unknown): string | Promise<string> {
  let stored: unknown;
  try {
    stored = s.redact ? s.redact(result, { operation: s.operation, key: s.id.key }) : result;
    const now = encodeResultNow(stored, s.maxResultBytes);
    if (now !== undefined) return now.text;
  } catch (err) {
    return unencodableMarker(err);
  }
  return encodeResult(stored, s.maxResultBytes).then((r) => r.text, unencodableMarker);
}

/**
 * How a completion ended: recorded (`stored`), recorded as a marker a replay cannot return (`marker`: over
 * `maxResultBytes`, or no JSON text), or rejected because another attempt owns the row (`fenced`).
 */
export type Recorded = 'stored' | 'marker' | 'fenced';

/** The markers stored-value.ts writes in place of a result start so (JSON.stringify of its object). */
const MARKER_TEXT = /^\{"\$idemgen":"(result-too-large|unencodable)"/;

/**
 * The effect happened: record it. Not async: with the stored text at hand (the common case) the caller
 * gets the store's promise plus one handler per outcome.
 */
export function complete(s: Settle, row: DedupRow, result: unknown): Promise<Recorded> {
  const pending = storedText(s, result);
  if (typeof pending !== 'string') return pending.then((text) => recordResult(s, row, result, text));
  return recordResult(s, row, result, pending);
}

function recordResult(s: Settle, row: DedupRow, result: unknown, text: string): Promise<Recorded> {
  const recorded: Recorded = MARKER_TEXT.test(text) ? 'marker' : 'stored';
  const ok = (done: boolean): Recorded => (done ? recorded : 'fenced');
  const unknown = (err: unknown): never => {
    const e = new IdempotencyOutcomeUnknownError(
      `${s.operation} happened, but its result could not be recorded (${describe(err)}); the row stays pending`,
      s.ctx(row),
      { cause: err },
    );
    e.result = result;
    throw e;
  };
  // Spelled out, not `{ ...s.id, result, now }`: on Node 20 that spread-plus-fields literal measured
  // about a third of the call's JS time (a slow clone, and an object shape the store then reads slowly).
  const { scope, key, leaseToken } = s.id;
  try {
    return s.store.complete({ scope, key, leaseToken, result: text, now: s.now() }).then(ok, unknown);
  } catch (err) {
    return Promise.reject(err).then(undefined, unknown); // a store that throws instead of rejecting
  }
}

/**
 * Fenced: the lease lapsed (a stalled process; the heartbeat normally prevents it) and another attempt
 * took the key over. For native-key and content-address the downstream deduped the repeat, so this result is the result.
 */
export async function onFenced<T>(s: Settle, result: T): Promise<T> {
  if (RETRY_SAFE_MECHANISMS.has(s.mechanism)) return result;
  const current = await s.store.get({ scope: s.id.scope, key: s.id.key }).catch(() => undefined);
  const fenced = new IdempotencyFencedError(
    `${s.operation}: lease expired and another attempt took the key over; this completion was rejected`,
    s.ctx(current),
  );
  fenced.result = result;
  throw fenced;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
