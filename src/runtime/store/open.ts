/**
 * `openStore(url)` for the CLI (`idemgen reconcile --store URL`) and for apps configured by URL:
 * `sqlite:path/to.db`, `sqlite:///abs/path.db`, `postgres://…` / `postgresql://…`, `redis://…` / `rediss://…`
 * (`valkey://` is an alias; `?prefix=` picks the key namespace), `memory:`.
 * `?table=` (and `?schema=` for PostgreSQL) pick a non-default table; they are removed before the
 * URL reaches `pg`.
 */
import { createMemoryStore } from './memory.js';
import { createPostgresStore } from './postgres.js';
import { createRedisStore } from './redis/store.js';
import { createSqliteStore } from './sqlite.js';
import type { DedupStore } from './types.js';

function splitQuery(rest: string): { path: string; params: URLSearchParams } {
  const q = rest.indexOf('?');
  return q < 0 ? { path: rest, params: new URLSearchParams() } : { path: rest.slice(0, q), params: new URLSearchParams(rest.slice(q + 1)) };
}

export function openStore(url: string): DedupStore {
  if (url === 'memory:' || url === 'memory') return createMemoryStore();
  if (url.startsWith('sqlite:')) {
    const { path, params } = splitQuery(url.slice('sqlite:'.length));
    const filename = path.startsWith('//') ? path.slice(2) : path;
    if (!filename) throw new TypeError(`openStore: ${url} names no database file`);
    return createSqliteStore({ filename: decodeURIComponent(filename), table: params.get('table') ?? undefined });
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const parsed = new URL(url);
    const table = parsed.searchParams.get('table') ?? undefined;
    const schema = parsed.searchParams.get('schema') ?? undefined;
    parsed.searchParams.delete('table');
    parsed.searchParams.delete('schema');
    return createPostgresStore({ connectionString: parsed.toString(), table, schema });
  }
  if (/^rediss?:\/\//.test(url) || /^valkeys?:\/\//.test(url)) {
    // valkey:// is an alias: node-redis only speaks redis:// / rediss://.
    const parsed = new URL(url.replace(/^valkey/, 'redis'));
    const table = parsed.searchParams.get('table') ?? undefined;
    const prefix = parsed.searchParams.get('prefix') ?? undefined;
    parsed.searchParams.delete('table');
    parsed.searchParams.delete('prefix');
    return createRedisStore({ url: parsed.toString(), table, prefix });
  }
  throw new TypeError(`openStore: unsupported store URL ${JSON.stringify(url)} (use sqlite:PATH, postgres://… or redis://…)`);
}
