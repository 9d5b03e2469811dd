/**
 * `openStore(url)` for the CLI (`idemgen reconcile --store URL`, `serve`) and for apps configured by URL:
 * `sqlite:path/to.db`, `sqlite:///abs/path.db`, `postgres://…` / `postgresql://…`, `mysql://…` / `mariadb://…`,
 * `redis://…` / `rediss://…` (`valkey://` is an alias; `?prefix=` picks the key namespace), `memory:`.
 * `?table=` (and `?schema=` for PostgreSQL, `?database=` for MySQL) pick a non-default table; they are
 * removed before the URL reaches the driver. `?connectTimeoutMs=` and `?commandTimeoutMs=` bound the network
 * stores' connects and statements/commands (default 5000 each; unavailable.ts).
 *
 * Async: each driver's store is its own entry point (`@idemgen/runtime/sqlite`, …) that imports the driver
 * statically, and this module loads only the one the URL names, so the main entry needs none installed.
 */
import { createMemoryStore } from './memory.js';
import type { FullDedupStore } from './types.js';
import { timeoutParam, type StoreTimeouts } from './timeouts.js';

function splitQuery(rest: string): { path: string; params: URLSearchParams } {
  const q = rest.indexOf('?');
  return q < 0
    ? { path: rest, params: new URLSearchParams() }
    : { path: rest.slice(0, q), params: new URLSearchParams(rest.slice(q + 1)) };
}

/** A URL with the store's own parameters taken out. */
function strip(url: URL, names: string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const n of names) {
    out[n] = url.searchParams.get(n) ?? undefined;
    url.searchParams.delete(n);
  }
  return out;
}

/** The timeout parameters of a network store URL, taken out of it. */
function timeouts(url: URL): StoreTimeouts {
  const t = strip(url, ['connectTimeoutMs', 'commandTimeoutMs']);
  const out: StoreTimeouts = {};
  const connect = timeoutParam('connectTimeoutMs', t.connectTimeoutMs);
  const command = timeoutParam('commandTimeoutMs', t.commandTimeoutMs);
  if (connect !== undefined) out.connectTimeoutMs = connect;
  if (command !== undefined) out.commandTimeoutMs = command;
  return out;
}

/** The driver entry, or an error that says which package to install (a missing optional peer). */
export async function loadDriver<T>(entry: () => Promise<T>, driver: string, scheme: string): Promise<T> {
  try {
    return await entry();
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    const missing =
      (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') &&
      String(e.message).includes(`'${driver}'`);
    if (!missing) throw err;
    throw new Error(
      `install ${driver} to use ${scheme} stores (npm i ${driver}): it is an optional peer of @idemgen/runtime`,
      { cause: err },
    );
  }
}

export async function openStore(url: string): Promise<FullDedupStore> {
  if (url === 'memory:' || url === 'memory') return createMemoryStore();
  if (url.startsWith('sqlite:')) {
    const { path, params } = splitQuery(url.slice('sqlite:'.length));
    const filename = path.startsWith('//') ? path.slice(2) : path;
    if (!filename) throw new TypeError(`openStore: ${url} names no database file`);
    const { createSqliteStore } = await loadDriver(() => import('./sqlite.js'), 'better-sqlite3', 'sqlite:');
    return createSqliteStore({ filename: decodeURIComponent(filename), table: params.get('table') ?? undefined });
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const parsed = new URL(url);
    const { table, schema } = strip(parsed, ['table', 'schema']);
    const limits = timeouts(parsed);
    const { createPostgresStore } = await loadDriver(() => import('./postgres.js'), 'pg', 'postgres://');
    return createPostgresStore({ connectionString: parsed.toString(), table, schema, ...limits });
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
    const { table, database } = strip(parsed, ['table', 'database']);
    const limits = timeouts(parsed);
    const { createMysqlStore } = await loadDriver(() => import('./mysql.js'), 'mysql2', 'mysql://');
    return createMysqlStore({ uri: parsed.toString(), table, database, ...limits });
  }
  if (/^rediss?:\/\//.test(url) || /^valkeys?:\/\//.test(url)) {
    // valkey:// is an alias: node-redis only speaks redis:// / rediss://.
    const parsed = new URL(url.replace(/^valkey/, 'redis'));
    const { table, prefix } = strip(parsed, ['table', 'prefix']);
    const limits = timeouts(parsed);
    const { createRedisStore } = await loadDriver(() => import('./redis/store.js'), 'redis', 'redis://');
    return createRedisStore({ url: parsed.toString(), table, prefix, ...limits });
  }
  throw new TypeError(
    `openStore: unsupported store URL ${JSON.stringify(url)} (use sqlite:PATH, postgres://…, mysql://… or redis://…)`,
  );
}
