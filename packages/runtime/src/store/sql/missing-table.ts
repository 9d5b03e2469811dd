/**
 * A dedup or saga table that was never created is a setup step the user missed, not a database crash:
 * instead of a raw `SqliteError: no such table` / `relation … does not exist`, the store throws an error
 * that names the table and the two ways to create it (the generated migration, or `idemgen migrate`).
 */
import type { SqlDriver, SqlQueries } from './driver.js';
import type { SqlDialectName } from './statements.js';

const DIALECTS: Record<SqlDialectName, { label: string; url: string; cli: string }> = {
  sqlite: { label: 'SQLite', url: 'sqlite:./path/to.db', cli: 'sqlite3 DB <' },
  postgres: { label: 'PostgreSQL', url: 'postgres://…', cli: 'psql -f' },
  mysql: { label: 'MySQL/MariaDB', url: 'mysql://…', cli: 'mysql DB <' },
};

export class IdempotencyStoreSchemaError extends Error {
  readonly code = 'idempotency_store_schema_missing';
  /** The table the database reported missing. */
  readonly table: string;

  constructor(table: string, dialect: SqlDialectName, options?: { cause?: unknown }) {
    const migration = /saga/i.test(table) ? '0002_idemgen_saga.up.sql' : '0001_idemgen_dedup.up.sql';
    const { label, url, cli } = DIALECTS[dialect];
    super(
      `the ${label} table ${table} does not exist: apply the generated migration ` +
        `generated/sql/${dialect}/${migration} (your migration tool, or \`${cli} …\`), ` +
        `or run \`npx idemgen migrate --store ${url}\` once`,
      options,
    );
    this.name = 'IdempotencyStoreSchemaError';
    this.table = table;
  }
}

/** The missing table's name, when `err` is the driver's "no such table" (SQLite), 42P01 (PostgreSQL) or ER_NO_SUCH_TABLE (MySQL). */
function missingTableOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : '';
  const sqlite = /^no such table: (\S+)/.exec(message);
  if (sqlite) return sqlite[1];
  if (e?.code === '42P01') return /relation "([^"]+)" does not exist/.exec(message)?.[1] ?? 'idemgen_dedup';
  if (e?.code === 'ER_NO_SUCH_TABLE') return /Table '([^']+)' doesn't exist/.exec(message)?.[1] ?? 'idemgen_dedup';
  return undefined;
}

export function guardMissingTable(driver: SqlDriver): SqlDriver {
  const rethrow = (err: unknown): never => {
    const table = missingTableOf(err);
    throw table === undefined ? err : new IdempotencyStoreSchemaError(table, driver.dialect, { cause: err });
  };
  const guard = (q: SqlQueries): SqlQueries => ({
    all: async (sql, params) => {
      try {
        return await q.all(sql, params);
      } catch (err) {
        return rethrow(err);
      }
    },
    run: async (sql, params) => {
      try {
        return await q.run(sql, params);
      } catch (err) {
        return rethrow(err);
      }
    },
  });
  const guarded: SqlDriver = {
    dialect: driver.dialect,
    ...guard(driver),
    close: () => driver.close(),
  };
  if (driver.transaction) guarded.transaction = (fn) => driver.transaction!((tx) => fn(guard(tx)));
  if (driver.isDuplicateKey) guarded.isDuplicateKey = (err) => driver.isDuplicateKey!(err);
  return guarded;
}
