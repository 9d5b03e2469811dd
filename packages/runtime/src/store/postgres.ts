/**
 * `@idemgen/runtime/postgres`: the PostgreSQL dedup store on a `pg` Pool: many processes on many machines
 * share one table, and the primary key arbitrates every claim. Values are read back as raw text per query
 * (custom type parsers), so a user pool keeps its own global parsers untouched. `pg` is imported
 * statically (bundlers see it); the main entry does not import this file.
 */
import pg from 'pg';
import type { Pool, PoolConfig, QueryConfig, QueryResultRow } from 'pg';
import type { SqlDriver } from './sql/driver.js';
import { createSqlStore, type StoreClock } from './sql/store.js';
import type { FullDedupStore } from './types.js';
import { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, type StoreTimeouts } from './timeouts.js';

/**
 * The slice of a `pg` Pool the store uses. A `pg.Pool` satisfies it; spelling it out keeps the
 * published types free of `pg`, so apps that never use PostgreSQL need neither `pg` nor `@types/pg`.
 */
export interface PgPoolLike {
  query(config: {
    text: string;
    values: unknown[];
    types: unknown;
    query_timeout?: number;
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
  end(): Promise<void>;
}

/**
 * `connectTimeoutMs` (a pool the store creates; default 5 s) and `commandTimeoutMs` (every statement,
 * as pg's client-side `query_timeout`; default 5 s on a pool the store creates, unset on yours unless given).
 */
export interface PostgresStoreOptions extends StoreTimeouts {
  connectionString?: string;
  /** An existing pool; the store then does not end it. */
  pool?: PgPoolLike;
  table?: string;
  /**
   * Whose clock decides leases and expiry: `store` (default) the database server's, read inside each
   * statement, so application servers with skewed clocks still agree; `caller` the `now` each call passes.
   */
  clock?: StoreClock;
  schema?: string;
  /** Extra pool settings (`pg` PoolConfig) when the store creates the pool. */
  poolConfig?: Record<string, unknown>;
  /**
   * Errors of idle pooled clients (the server restarted, a proxy dropped the socket) on a pool the
   * store created. Default: ignored — the dropped client is discarded by `pg` and the next query
   * opens a new one or fails itself.
   */
  onPoolError?: (err: Error) => void;
}

/**
 * Every column as its text form: JSON stays byte-for-byte what we stored (jsonb would hand back
 * a parsed value, and a JSON string result would be indistinguishable from JSON text), and ms
 * epochs in int8 stay exact. The row mappers convert numbers themselves.
 */
const rawTypes = {
  getTypeParser:
    () =>
    (value: string): string =>
      value,
};

function toPg(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function openPool(opts: PostgresStoreOptions): { pool: Pool; owned: boolean } {
  if (opts.pool) return { pool: opts.pool as unknown as Pool, owned: false };
  if (!opts.connectionString) throw new TypeError('createPostgresStore: pass `connectionString` or `pool`');
  const pool = new pg.Pool({
    max: 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ...(opts.poolConfig as PoolConfig | undefined),
    connectionString: opts.connectionString,
  });
  // An EventEmitter 'error' with no listener throws: one idle connection drop would crash the process.
  pool.on('error', opts.onPoolError ?? (() => undefined));
  return { pool, owned: true };
}

export function createPostgresDriver(opts: PostgresStoreOptions): SqlDriver {
  const { pool, owned } = openPool(opts);
  const texts = new Map<string, string>();
  const text = (sql: string): string => {
    let t = texts.get(sql);
    if (t === undefined) {
      t = toPg(sql);
      texts.set(sql, t);
    }
    return t;
  };
  // Client-side: a server that stops answering (killed, a dropped link) fails the statement, not the call forever.
  const timeout = opts.commandTimeoutMs ?? (owned ? DEFAULT_COMMAND_TIMEOUT_MS : undefined);
  const query =
    timeout === undefined
      ? (sql: string, params: readonly unknown[]) =>
          pool.query<QueryResultRow>({ text: text(sql), values: [...params], types: rawTypes })
      : (sql: string, params: readonly unknown[]) =>
          pool.query<QueryResultRow>({
            text: text(sql),
            values: [...params],
            types: rawTypes,
            query_timeout: timeout, // read by pg's Client.query per statement; missing from @types/pg's QueryConfig
          } as QueryConfig);
  return {
    dialect: 'postgres',
    async all(sql, params) {
      return (await query(sql, params)).rows;
    },
    async run(sql, params) {
      return (await query(sql, params)).rowCount ?? 0;
    },
    async close() {
      if (owned) await pool.end();
    },
  };
}

export function createPostgresStore(opts: PostgresStoreOptions): FullDedupStore {
  return createSqlStore(createPostgresDriver(opts), { table: opts.table, schema: opts.schema, clock: opts.clock });
}
