/**
 * The connect / command timeouts every built-in driver starts with, and their URL options. Whether an error
 * says the store was unreachable is decided in core (core/unavailable.ts), where the state machine needs it.
 */

/** Defaults of the built-in drivers (ms): a down store fails within seconds, never hangs a call. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_COMMAND_TIMEOUT_MS = 5_000;
/** node-redis: reconnect attempts after a drop before the client gives up (the next command connects anew). */
export const DEFAULT_RECONNECT_ATTEMPTS = 3;

/** The timeouts a store factory (and a store URL: `?connectTimeoutMs=&commandTimeoutMs=`) accepts. */
export interface StoreTimeouts {
  /** Opening a connection (TCP + handshake), ms. */
  connectTimeoutMs?: number;
  /** One statement or command, ms. */
  commandTimeoutMs?: number;
}

/** A positive integer option from a URL query (`?commandTimeoutMs=2000`), or a TypeError naming it. */
export function timeoutParam(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new TypeError(`openStore: ${name}=${JSON.stringify(value)} must be a positive whole number of milliseconds`);
  }
  return n;
}
