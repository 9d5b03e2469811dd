/**
 * Store tables before the first call: `migrateStore(url, ddl)` applies the generated DDL (the dedup and saga
 * tables, rendered by the generator's `renderStoreMigration`; the runtime carries none of its own) to the
 * store a URL names, and `checkStoreTables(store)` proves both tables answer. `idemgen serve` and the
 * generated MCP module's `main()` run both at start-up, so a fresh machine's first tool call finds its
 * tables, and a store that cannot have them stops the start with one line instead of failing the call.
 * Every statement is `IF NOT EXISTS`; PostgreSQL runs it under an advisory lock, so concurrent starts are
 * harmless. Redis/Valkey and `memory:` need no tables.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadDriver } from './open.js';
import { hasCapability, type DedupStore } from './types.js';

/** The store tables' DDL per SQL dialect (each script creates the dedup and the saga table). */
export interface StoreTablesDdl {
  sqlite: string;
  postgres: string;
  mysql: string;
  /** The tables' names when not the defaults (`idemgen_dedup`, `idemgen_saga`): config `sql`. */
  dedupTable?: string;
  sagaTable?: string;
}

function sqliteFile(url: string, cwd: string): string {
  const rest = url.slice('sqlite:'.length);
  const q = rest.indexOf('?');
  const raw = decodeURIComponent(q < 0 ? rest : rest.slice(0, q));
  const file = raw.startsWith('//') ? raw.slice(2) : raw;
  if (!file) throw new TypeError(`${url} names no database file`);
  return resolve(cwd, file);
}

async function migrateSqlite(file: string, ddl: string): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  const { default: Database } = await loadDriver(() => import('better-sqlite3'), 'better-sqlite3', 'sqlite:');
  const db = new Database(file);
  try {
    // One transaction: all tables or none, and one journal sync instead of one per statement (serve's start).
    db.transaction(() => db.exec(ddl))();
  } finally {
    db.close();
  }
}

async function migratePostgres(url: string, ddl: string): Promise<void> {
  const { default: pg } = await loadDriver(() => import('pg'), 'pg', 'postgres://');
  const plain = new URL(url);
  plain.searchParams.delete('table');
  plain.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: plain.toString() });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtext('idemgen store migration'))");
    await client.query(ddl);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

async function migrateMysql(url: string, ddl: string): Promise<void> {
  const { default: mysql } = await loadDriver(() => import('mysql2/promise'), 'mysql2', 'mysql://');
  const plain = new URL(url.replace(/^mariadb:/, 'mysql:'));
  plain.searchParams.delete('table');
  plain.searchParams.delete('database');
  const conn = await mysql.createConnection({ uri: plain.toString(), multipleStatements: true });
  try {
    await conn.query(ddl);
  } finally {
    await conn.end();
  }
}

/**
 * Applies `ddl` for the URL's dialect (`sqlite:` files are created, with their folder, relative to `cwd`).
 * Other URLs (Redis, `memory:`) have no tables: nothing to do.
 */
export async function migrateStore(url: string, ddl: StoreTablesDdl, cwd = process.cwd()): Promise<void> {
  if (url.startsWith('sqlite:')) return migrateSqlite(sqliteFile(url, cwd), ddl.sqlite);
  if (/^postgres(ql)?:\/\//.test(url)) return migratePostgres(url, ddl.postgres);
  if (/^(mysql|mariadb):\/\//.test(url)) return migrateMysql(url, ddl.mysql);
}

const PROBE = { scope: '', key: 'idemgen-store-table-probe' };

/**
 * Reads one (absent) row from the dedup table and, when the store has one, the saga table: a missing table
 * rejects with the store's own error (`IdempotencyStoreSchemaError`, which names the table and the fix).
 */
export async function checkStoreTables(store: DedupStore, sagaTable?: string): Promise<void> {
  await store.get(PROBE);
  if (hasCapability(store, 'saga')) await store.saga(sagaTable).get(PROBE);
}
