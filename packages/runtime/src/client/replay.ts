/**
 * How a native-key replay is recognised from what the API returns (docs/concepts.md#replay). The API keeps the
 * record, so the runtime can only read its answer: a replay header where the API sets one, else a creation time
 * in the body that the response itself proves older than the request that got it. The result says which
 * (`replayEvidence`), so nobody has to guess why a call was counted as a replay.
 */
import type { ReplayEvidence } from '../core/idempotency.js';
import type { HttpResponse } from '../http/caller.js';

/** What the generator found, per operation, that marks a replay in the API's answer. */
export interface ReplaySignals {
  /** A replay header the spec declares (or the provider documents), read besides `REPLAY_HEADERS`. */
  readonly header?: string;
  /**
   * The top-level response field holding the created resource's creation time: `date-time` (RFC 3339 text),
   * `unix-seconds` or `unix-ms` (numbers). Only for an operation that creates (a POST to a collection); absent
   * when the API states replays in a header, whose absence is then its answer.
   */
  readonly created?: { readonly field: string; readonly format: 'date-time' | 'unix-seconds' | 'unix-ms' };
}

/**
 * Replay headers as vendors name them, each set to `true` on a replayed response: `Idempotent-Replayed` (Stripe,
 * Whop), `Idempotency-Replayed` and `X-Idempotency-Replayed` (APIs that publish them as their replay marker).
 * Lower-case, as `HttpResponse.headers` holds them. A value other than `true` (often `false`) is the API saying
 * "fresh", and then no timestamp is read.
 */
export const REPLAY_HEADERS: readonly string[] = [
  'idempotent-replayed',
  'idempotency-replayed',
  'x-idempotency-replayed',
];

/** The header's name as the evidence spells it: the vendors' capitalisation. */
const SPELLED: Readonly<Record<string, string>> = {
  'idempotent-replayed': 'Idempotent-Replayed',
  'idempotency-replayed': 'Idempotency-Replayed',
  'x-idempotency-replayed': 'X-Idempotency-Replayed',
};

export interface ReplayReading {
  evidence: ReplayEvidence;
  /** The original's time when the answer carries it (the creation time); never the replay's own `Date`. */
  originalCalledAt?: Date;
}

/** The creation time in ms since the epoch, with its precision (a whole second for a seconds value). */
function createdAt(
  body: unknown,
  created: NonNullable<ReplaySignals['created']>,
): { at: number; precisionMs: number } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const v = (body as Record<string, unknown>)[created.field];
  if (created.format === 'date-time') {
    if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/.test(v)) return undefined;
    const at = Date.parse(v);
    if (Number.isNaN(at)) return undefined;
    // Text without fractional seconds is floored to its second.
    return { at, precisionMs: /:\d{2}\.\d+/.test(v) ? 1 : 1000 };
  }
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return undefined;
  // A "seconds" field holding milliseconds (13 digits) is read as milliseconds rather than as the year 50000.
  const ms = created.format === 'unix-ms' || n > 1e11;
  return { at: ms ? n : n * 1000, precisionMs: ms ? 1 : 1000 };
}

/**
 * The server's clock minus ours can be bounded from below by the response's `Date` (RFC 9110 §6.6.1: the
 * time the answer was generated, floored to the second): that time is ≤ `receivedAt` on our clock, so
 * offset > `Date` − `receivedAt`. Without a readable `Date` nothing bounds it, and no timestamp is trusted.
 */
function offsetLowerBound(res: HttpResponse): number | undefined {
  const date = res.headers.date;
  if (date === undefined || res.receivedAt === undefined) return undefined;
  const at = Date.parse(date);
  return Number.isNaN(at) ? undefined : at - res.receivedAt;
}

/**
 * The evidence of a replay in one native-key answer, or `undefined` for a fresh call. A replay header wins
 * (its `false` is the API saying "fresh"); else a creation time counts only when it is older than this
 * attempt's send time by more than any clock offset the `Date` header allows: a resource this request created
 * was created at or after `sentAt + offset` on the server's clock, so a creation (plus its precision) at or
 * before `sentAt + (Date − receivedAt)` was made by an earlier request with the same key.
 */
export function readReplay(res: HttpResponse, signals: ReplaySignals | undefined): ReplayReading | undefined {
  const names = signals?.header !== undefined ? [signals.header.toLowerCase(), ...REPLAY_HEADERS] : REPLAY_HEADERS;
  for (const name of names) {
    const value = res.headers[name];
    if (value === undefined) continue;
    if (value.trim().toLowerCase() !== 'true') return undefined;
    return { evidence: `header:${SPELLED[name] ?? signals?.header ?? name}` };
  }
  if (signals?.header !== undefined || signals?.created === undefined || res.sentAt === undefined) return undefined;
  const created = createdAt(res.body, signals.created);
  const offset = offsetLowerBound(res);
  if (created === undefined || offset === undefined) return undefined;
  if (created.at + created.precisionMs > res.sentAt + offset) return undefined;
  return { evidence: 'created-before-send', originalCalledAt: new Date(created.at) };
}
