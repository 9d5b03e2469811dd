/**
 * The seam between the Redis store and a client. Only raw commands are used (`sendCommand`), so any
 * client with that method works — node-redis (`redis` ≥ 4, `@redis/client`) directly, others through a
 * two-line adapter — and the published types stay free of `redis`. Scripts run as Redis Functions or
 * by EVALSHA (functions.ts).
 */
import { createClient } from 'redis';
import { scriptRunner } from './functions.js';

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
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export interface RedisConnectOptions {
  url?: string;
  client?: RedisClientLike;
  /** Errors of a client the store created (reconnects are node-redis's own); default: ignored. */
  onClientError?: (err: Error) => void;
}

function createOwnedClient(url: string, onError: (err: Error) => void): OwnedClient {
  const client = createClient({ url }) as unknown as OwnedClient;
  // An EventEmitter 'error' with no listener throws: one dropped socket would crash the process.
  client.on('error', onError);
  return client;
}

/** `scripts`: every Lua text this connection may run (one function library on the server). */
export function connectRedis(opts: RedisConnectOptions, scripts: readonly string[]): RedisConnection {
  if (!opts.client && !opts.url) throw new TypeError('createRedisStore: pass `url` or `client`');
  const owned = opts.client
    ? undefined
    : createOwnedClient(opts.url as string, opts.onClientError ?? (() => undefined));
  const client: RedisClientLike = opts.client ?? (owned as OwnedClient);
  // Connect lazily, once: creating the store does no I/O, like the SQL stores.
  let ready: Promise<unknown> | undefined = owned ? undefined : Promise.resolve();
  let connected = owned === undefined;
  const command = (args: string[]): Promise<unknown> => {
    // Connected: the client's own promise, no extra async hop per command (three per idempotent call).
    if (connected) return client.sendCommand(args);
    ready ??= (owned as OwnedClient).connect().then(() => {
      connected = true;
    });
    return ready.then(() => client.sendCommand(args));
  };
  return {
    command,
    script: scriptRunner(command, scripts),
    async close() {
      if (!owned || ready === undefined) return;
      await ready.catch(() => undefined);
      await (owned.close ? owned.close() : owned.quit?.());
    },
  };
}
