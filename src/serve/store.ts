/**
 * The dedup store of `idemgen serve`: an embedded SQLite file by default (created and migrated here, so
 * `serve` needs no setup), or any `openStore` URL — PostgreSQL or MySQL/MariaDB let several instances behind a load
 * balancer share one dedup table. The table is created with the generated migration (the schema's one
 * source, docs/contracts.md); its DDL is `IF NOT EXISTS`, so starting against a migrated store is a no-op.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ResolvedConfig } from '../config/types.js';
import { renderStoreMigration } from '../emit/sql/index.js';
import { openStore } from '../runtime/store/open.js';
import type { DedupStore } from '../runtime/store/types.js';

const DEFAULT_SERVE_STORE = '.idemgen/serve.sqlite';

export interface ServeStore {
  store: DedupStore;
  /** For the start-up line; a PostgreSQL URL without its password. */
  label: string;
}

function tableOf(params: URLSearchParams, sql: ResolvedConfig['sql']): ResolvedConfig['sql'] {
  const table = params.get('table');
  const schema = params.get('schema');
  return { ...sql, ...(table ? { dedupTable: table } : {}), ...(schema ? { schema } : {}) };
}

async function migrateSqlite(file: string, sql: ResolvedConfig['sql']): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file);
  try {
    db.exec(renderStoreMigration('sqlite', { ...sql, schema: undefined }, { saga: false }).up);
  } finally {
    db.close();
  }
}

/**
 * MySQL/MariaDB: the DDL is CREATE TABLE IF NOT EXISTS (indexes inline), so concurrent starts are
 * harmless; `?table=` / `?database=` pick the table as for the store.
 */
async function migrateMysql(url: URL, sql: ResolvedConfig['sql']): Promise<void> {
  const { default: mysql } = await import('mysql2/promise');
  const plain = new URL(url.toString().replace(/^mariadb:/, 'mysql:'));
  const database = plain.searchParams.get('database') ?? undefined;
  plain.searchParams.delete('table');
  plain.searchParams.delete('database');
  const conn = await mysql.createConnection({ uri: plain.toString(), multipleStatements: true });
  try {
    await conn.query(renderStoreMigration('mysql', { ...sql, schema: database }, { saga: false }).up);
  } finally {
    await conn.end();
  }
}

/** Concurrent starts (two instances at once) take a transaction-scoped advisory lock around the DDL. */
async function migratePostgres(url: URL, sql: ResolvedConfig['sql']): Promise<void> {
  const { default: pg } = await import('pg');
  const plain = new URL(url);
  plain.searchParams.delete('table');
  plain.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: plain.toString() });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtext('idemgen serve migration'))");
    await client.query(renderStoreMigration('postgres', sql, { saga: false }).up);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

export async function openServeStore(
  url: string | undefined,
  cwd: string,
  sql: ResolvedConfig['sql'],
): Promise<ServeStore> {
  const spec = url ?? `sqlite:${DEFAULT_SERVE_STORE}`;
  if (spec.startsWith('sqlite:')) {
    const rest = spec.slice('sqlite:'.length);
    const q = rest.indexOf('?');
    const params = new URLSearchParams(q < 0 ? '' : rest.slice(q + 1));
    const raw = decodeURIComponent(q < 0 ? rest : rest.slice(0, q));
    const file = resolve(cwd, raw.startsWith('//') ? raw.slice(2) : raw);
    await migrateSqlite(file, tableOf(params, sql));
    const table = params.get('table');
    const { createSqliteStore } = await import('../runtime/store/sqlite.js');
    return { store: createSqliteStore({ filename: file, table: table ?? sql.dedupTable }), label: `sqlite:${file}` };
  }
  if (/^postgres(ql)?:\/\//.test(spec)) {
    const parsed = new URL(spec);
    await migratePostgres(parsed, tableOf(parsed.searchParams, sql));
    const shown = new URL(spec);
    if (shown.password) shown.password = '***';
    return { store: await openStore(spec), label: shown.toString() };
  }
  if (/^(mysql|mariadb):\/\//.test(spec)) {
    const parsed = new URL(spec);
    await migrateMysql(parsed, tableOf(parsed.searchParams, sql));
    const shown = new URL(spec);
    if (shown.password) shown.password = '***';
    return { store: await openStore(spec), label: shown.toString() };
  }
  return { store: await openStore(spec), label: spec };
}
