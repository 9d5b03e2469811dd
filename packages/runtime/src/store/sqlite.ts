/**
 * `@idemgen/runtime/sqlite`: the SQLite dedup store (the embedded default) on better-sqlite3 ≥ 11. WAL
 * lets readers proceed while one writer commits; busy_timeout makes a second process wait for the write
 * lock instead of failing with SQLITE_BUSY. Its own entry point with a static import, so bundlers see the
 * driver and the main entry loads without it.
 */
import BetterSqlite3 from 'better-sqlite3';
import type { SqlDriver } from './sql/driver.js';
import { createSqlStore } from './sql/store.js';
import type { FullDedupStore } from './types.js';

/**
 * The slice of a better-sqlite3 Database the store uses. A better-sqlite3 `Database` satisfies it;
 * spelling it out keeps the published types free of `better-sqlite3`.
 */
export interface SqliteDatabaseLike {
  readonly memory: boolean;
  readonly open: boolean;
  pragma(source: string): unknown;
  prepare(source: string): unknown;
  close(): unknown;
}

export interface SqliteStoreOptions {
  /** A database file path (created if missing; the table must exist — run the migration). */
  filename?: string;
  /** Or an open better-sqlite3 database; the store then does not close it. */
  database?: SqliteDatabaseLike;
  table?: string;
  busyTimeoutMs?: number;
}

type SqliteValue = string | number | bigint | Buffer | null;

function bindable(params: readonly unknown[]): SqliteValue[] {
  return params.map((p) => (p === undefined ? null : (p as SqliteValue)));
}

function openDatabase(opts: SqliteStoreOptions): { db: BetterSqlite3.Database; owned: boolean } {
  if (opts.database) return { db: opts.database as BetterSqlite3.Database, owned: false };
  if (!opts.filename) throw new TypeError('createSqliteStore: pass `filename` or `database`');
  return { db: new BetterSqlite3(opts.filename), owned: true };
}

export function createSqliteDriver(opts: SqliteStoreOptions): SqlDriver {
  const { db, owned } = openDatabase(opts);
  if (db.memory === false) db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string): BetterSqlite3.Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
  return {
    dialect: 'sqlite',
    async all(sql, params) {
      const stmt = prepare(sql);
      if (stmt.reader) return stmt.all(...bindable(params)) as Record<string, unknown>[];
      stmt.run(...bindable(params));
      return [];
    },
    async run(sql, params) {
      return prepare(sql).run(...bindable(params)).changes;
    },
    async close() {
      cache.clear();
      if (owned && db.open) db.close();
    },
  };
}

export function createSqliteStore(opts: SqliteStoreOptions): FullDedupStore {
  return createSqlStore(createSqliteDriver(opts), { table: opts.table });
}
