/**
 * "The store cannot be reached" across drivers: the one test the state machine uses to turn a failed claim
 * into `IdempotencyStoreUnavailableError` (and sagas, and the CLI, to say why). A driver's own words differ
 * (pg "Connection terminated unexpectedly", mysql2 PROTOCOL_CONNECTION_LOST, node-redis ClientOfflineError …);
 * the codes and names below are theirs. The drivers' timeouts are in store/timeouts.ts.
 */

/** Socket-level error codes of Node and the drivers: the store was not reached or the link broke. */
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
  // mysql2
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  // PostgreSQL SQLSTATEs: admin/crash shutdown, cannot connect now
  '57P01',
  '57P02',
  '57P03',
]);

/** node-redis error classes, by class name (they keep `name` 'Error'; the published types stay free of `redis`). */
const NAMES = new Set([
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ClientClosedError',
  'ClientOfflineError',
  'SocketClosedUnexpectedlyError',
  'ReconnectStrategyError',
  'TimeoutError',
]);

/** `name` when set, else the class name (node-redis errors keep the default `name`). */
function className(e: object): string {
  const name = (e as { name?: unknown }).name;
  if (typeof name === 'string' && name !== 'Error') return name;
  return (e as { constructor?: { name?: unknown } }).constructor?.name === undefined
    ? 'Error'
    : String((e as { constructor: { name: unknown } }).constructor.name);
}

/** pg words its connection failures in messages only. */
const PG_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout)/;

/** Whether `err` (or an error it wraps, or one of an AggregateError's) says the store was unreachable. */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const x = e as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
    if ((x as { storeUnavailable?: unknown }).storeUnavailable === true) return true;
    if (typeof x.code === 'string' && (CODES.has(x.code) || x.code.startsWith('08'))) return true;
    if (NAMES.has(className(x))) return true;
    if (typeof x.message === 'string' && PG_MESSAGES.test(x.message)) return true;
    if (Array.isArray(x.errors) && x.errors.some(isStoreUnavailable)) return true;
    e = x.cause;
  }
  return false;
}

/** A readable reason: node-redis's TimeoutError has an empty message, an AggregateError lists its parts. */
export function unavailableReason(err: unknown): string {
  const e = err as { name?: unknown; message?: unknown; code?: unknown; errors?: unknown } | null;
  if (e === null || typeof e !== 'object') return String(err);
  if (Array.isArray(e.errors) && e.errors.length > 0) return unavailableReason(e.errors[0]);
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : 'no message';
  const code = typeof e.code === 'string' ? ` ${e.code}` : '';
  return `${className(e)}${code}: ${message}`;
}
