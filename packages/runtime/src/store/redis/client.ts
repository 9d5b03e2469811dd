/**
 * The seam between the Redis store and a client. Only raw commands are used (`sendCommand`), so any
 * client with that method works — node-redis (`redis` ≥ 4, `@redis/client`) directly, others through a
 * two-line adapter — and the published types stay free of `redis`. Scripts run as Redis Functions or
 * by EVALSHA (functions.ts).
 */
import { createClient } from 'redis';
import { scriptRunner } from './functions.js';
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_RECONNECT_ATTEMPTS,
  type StoreTimeouts,
} from '../timeouts.js';

export interface RedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisConnection {
  command(args: string[]): Promise<unknown>;
  script(lua: string, keys: string[], args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

interface OwnedClient extends RedisClientLike {
  connect(): Promise<unknown>;
  destroy(): void;
  readonly isOpen: boolean;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * A client the store creates is bounded: `connectTimeoutMs` per connect (default 5 s), `commandTimeoutMs`
 * per command (default 5 s), `reconnectAttempts` after a drop (default 3, then it stops; the next
 * command connects anew), and no offline queue — while the link is down a command fails at once
 * instead of waiting for a reconnect that may never come.
 */
export interface RedisConnectOptions extends StoreTimeouts {
  url?: string;
  client?: RedisClientLike;
  /** Errors of a client the store created (reconnects are node-redis's own); default: ignored. */
  onClientError?: (err: Error) => void;
  reconnectAttempts?: number;
}

function createOwnedClient(url: string, opts: RedisConnectOptions): OwnedClient {
  const attempts = opts.reconnectAttempts ?? DEFAULT_RECONNECT_ATTEMPTS;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number) => (retries >= attempts ? false : Math.min(50 * 2 ** retries, 500)),
    },
  }) as unknown as OwnedClient;
  const onError = opts.onClientError ?? (() => undefined);
  // An EventEmitter 'error' with no listener throws: one dropped socket would crash the process.
  client.on('error', onError);
  return client;
}

/**
 * node-redis bounds the TCP connect, but not the handshake after it (HELLO, CLIENT SETINFO): a server that
 * accepts and never answers would hold `connect()` forever. The connect timeout covers the whole connect,
 * handshake and reconnects included: past `ms` the client is destroyed (the next
 * command connects anew) and the connect fails with a ConnectionTimeoutError.
 */
function boundedConnect(client: OwnedClient, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const err = new Error(`no answer from the Redis server within ${ms} ms of connecting`);
      err.name = 'ConnectionTimeoutError';
      reject(err);
      if (client.isOpen) client.destroy();
    }, ms);
    client.connect().then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** `scripts`: every Lua text this connection may run (one function library on the server). */
export function connectRedis(opts: RedisConnectOptions, scripts: readonly string[]): RedisConnection {
  if (!opts.client && !opts.url) throw new TypeError('createRedisStore: pass `url` or `client`');
  const owned = opts.client ? undefined : createOwnedClient(opts.url as string, opts);
  const client: RedisClientLike = opts.client ?? (owned as OwnedClient);
  // Connect lazily, once: creating the store does no I/O, like the SQL stores.
  let ready: Promise<unknown> | undefined = owned ? undefined : Promise.resolve();
  let connected = owned === undefined;
  const command = (args: string[]): Promise<unknown> => {
    // Connected: the client's own promise, no extra async hop per command (three per idempotent call).
    // A client whose reconnects ran out is closed for good: connect it again (bounded again) on demand.
    if (connected && (owned === undefined || owned.isOpen)) return client.sendCommand(args);
    const o = owned as OwnedClient;
    if (connected || ready === undefined) {
      connected = false;
      // A failed connect is forgotten, so a later command tries again once the server is back.
      const limit = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
      const attempt: Promise<unknown> = boundedConnect(o, limit).then(
        () => {
          connected = true;
        },
        (err: unknown) => {
          if (ready === attempt) ready = undefined;
          throw err;
        },
      );
      ready = attempt;
    }
    return (ready as Promise<unknown>).then(() => client.sendCommand(args));
  };
  return {
    command,
    script: scriptRunner(command, scripts),
    async close() {
      if (!owned || ready === undefined) return;
      await ready.catch(() => undefined);
      if (!owned.isOpen) return; // never connected, or its reconnects ran out: nothing to close
      await (owned.close ? owned.close() : owned.quit?.());
    },
  };
}
