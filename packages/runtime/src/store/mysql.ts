/**
 * `@idemgen/runtime/mysql`: the MySQL / MariaDB dedup store on a `mysql2` pool, on the table of the
 * generated MySQL migration (generated/sql/mysql/). Floor: MySQL ≥ 8.0.16 or MariaDB ≥ 10.4 (enforced
 * CHECK constraints; nothing newer is used — no RETURNING, which MySQL lacks and MariaDB has on INSERT
 * only). The claim is a plain INSERT whose ER_DUP_ENTRY means "the key exists"; every fenced update is
 * `UPDATE … WHERE lease_token = ?`; an update that must hand its row back runs in a transaction (see
 * sql/returning.ts). Scopes and keys are VARBINARY: they compare exactly, trailing spaces included.
 * `mysql2` is imported statically; the main entry does not import this file.
 */
import mysql from 'mysql2/promise';
import type { SqlDriver, SqlQueries } from './sql/driver.js';
import { createSqlStore, type StoreClock } from './sql/store.js';
import type { FullDedupStore } from './types.js';
import { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, type StoreTimeouts } from './timeouts.js';

/** The slice of a mysql2/promise connection the store uses. */
interface MysqlQueryable {
  query(sql: string | { sql: string; timeout?: number }, values: unknown[]): Promise<[unknown, unknown]>;
}

interface MysqlConnectionLike extends MysqlQueryable {
  beginTransaction(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  release(): void;
}

/**
 * The slice of a `mysql2/promise` Pool the store uses. A mysql2 `Pool` satisfies it. Its connections must
 * keep mysql2's default CLIENT_FOUND_ROWS flag: a fenced UPDATE that rewrites equal values must still count.
 */
export interface MysqlPoolLike extends MysqlQueryable {
  getConnection(): Promise<MysqlConnectionLike>;
  end(): Promise<void>;
}

/**
 * `connectTimeoutMs` (a pool the store creates; default 5 s) and `commandTimeoutMs` (every statement,
 * mysql2's per-query `timeout`; default 5 s on a pool the store creates, unset on yours unless given).
 */
export interface MysqlStoreOptions extends StoreTimeouts {
  /** `mysql://user:pass@host:3306/database` (`mariadb://` is accepted too). */
  uri?: string;
  /** An existing pool; the store then does not end it. */
  pool?: MysqlPoolLike;
  table?: string;
  /**
   * Whose clock decides leases and expiry: `store` (default) the database server's, read inside each
   * statement, so application servers with skewed clocks still agree; `caller` the `now` each call passes.
   */
  clock?: StoreClock;
  /** A database other than the connection's (MySQL's schemas are databases). */
  database?: string;
  /** Extra pool settings (mysql2 PoolOptions) when the store creates the pool. */
  poolConfig?: Record<string, unknown>;
}

const DEADLOCK = 'ER_LOCK_DEADLOCK';
const errCode = (err: unknown): unknown => (err as { code?: unknown } | null)?.code;

/** InnoDB may pick a statement as a deadlock victim (rolled back, no effect): run it again, a few times. */
async function retryDeadlock<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (errCode(err) !== DEADLOCK || attempt >= 5) throw err;
    }
  }
}

/**
 * The identity columns (scope, idempotency_key) are VARBINARY, so they compare byte for byte (utf8mb4_bin is
 * PAD SPACE: `'alice' = 'alice   '`); mysql2 hands them back as Buffers. No store column holds real binary
 * data, so every Buffer is the UTF-8 text the store wrote.
 */
function textual(row: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(row)) {
    if (!Buffer.isBuffer(value)) continue;
    out ??= { ...row };
    out[name] = value.toString('utf8');
  }
  return out ?? row;
}

function queries(q: MysqlQueryable, timeout: number | undefined): SqlQueries {
  const statement = (sql: string) => (timeout === undefined ? sql : { sql, timeout });
  return {
    async all(sql, params) {
      const [rows] = await q.query(statement(sql), [...params]);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]).map(textual) : [];
    },
    async run(sql, params) {
      const [result] = await q.query(statement(sql), [...params]);
      return (result as { affectedRows?: number }).affectedRows ?? 0;
    },
  };
}

function openPool(opts: MysqlStoreOptions): { pool: MysqlPoolLike; owned: boolean } {
  if (opts.pool) return { pool: opts.pool, owned: false };
  if (!opts.uri) throw new TypeError('createMysqlStore: pass `uri` or `pool`');
  const uri = opts.uri.replace(/^mariadb:/, 'mysql:');
  // Epoch milliseconds fit a double; decimal/bigint columns would otherwise come back as strings.
  const pool = mysql.createPool({
    uri,
    connectionLimit: 10,
    supportBigNumbers: true,
    connectTimeout: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ...opts.poolConfig,
  });
  return { pool: pool as unknown as MysqlPoolLike, owned: true };
}

export function createMysqlDriver(opts: MysqlStoreOptions): SqlDriver {
  const { pool, owned } = openPool(opts);
  const timeout = opts.commandTimeoutMs ?? (owned ? DEFAULT_COMMAND_TIMEOUT_MS : undefined);
  const direct = queries(pool, timeout);
  return {
    dialect: 'mysql',
    all: (sql, params) => retryDeadlock(() => direct.all(sql, params)),
    run: (sql, params) => retryDeadlock(() => direct.run(sql, params)),
    transaction: (fn) =>
      retryDeadlock(async () => {
        const conn = await pool.getConnection();
        try {
          await conn.beginTransaction();
          const out = await fn(queries(conn, timeout));
          await conn.commit();
          return out;
        } catch (err) {
          await conn.rollback().catch(() => undefined);
          throw err;
        } finally {
          conn.release();
        }
      }),
    isDuplicateKey: (err) => errCode(err) === 'ER_DUP_ENTRY',
    async close() {
      if (owned) await pool.end();
    },
  };
}

export function createMysqlStore(opts: MysqlStoreOptions): FullDedupStore {
  return createSqlStore(createMysqlDriver(opts), { table: opts.table, schema: opts.database, clock: opts.clock });
}
