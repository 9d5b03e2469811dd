/**
 * The claim SQL, owned by the runtime and written once for the three dialects: the stores run it and
 * the migration emitter (`src/emit/sql`) renders the same text for its docs and engine tests, so the
 * statement users read is the statement that runs. Table names arrive validated and quoted.
 */
import { DEDUP_COLUMN_NAMES, SAGA_COLUMN_NAMES } from './schema.js';

export type SqlDialectName = 'sqlite' | 'postgres' | 'mysql';

/** The columns a dedup claim writes, in bind order; `status` and `attempts` are literals. */
const CLAIM_COLUMNS = [
  'scope',
  'idempotency_key',
  'operation',
  'args_hash',
  'mechanism',
  'lease_token',
  'lease_expires_at',
  'created_at',
  'expires_at',
  'args_summary',
] as const;

/**
 * The server's clock as epoch milliseconds, read inside the statement (constant within one statement):
 * PostgreSQL `statement_timestamp()`, MySQL/MariaDB `UTC_TIMESTAMP(6)` counted from the epoch in UTC (no
 * session time zone, so no DST hour is ever read twice). SQLite has none worth the name: it is an embedded,
 * single-host store and takes the caller's `now` (`undefined` here).
 */
export function serverClockSql(dialect: SqlDialectName): string | undefined {
  if (dialect === 'postgres') return 'FLOOR(EXTRACT(EPOCH FROM statement_timestamp()) * 1000)::bigint';
  if (dialect === 'mysql') return "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)";
  return undefined;
}

/** The columns a saga claim writes, in bind order; `status` is the literal `pending`. */
const SAGA_CLAIM_COLUMNS = [
  'scope',
  'idempotency_key',
  'operation',
  'args_hash',
  'compensation_operation',
  'lease_token',
  'lease_expires_at',
  'created_at',
  'updated_at',
  'expires_at',
] as const;

/** What every read and RETURNING lists, in the table's own column order. */
export const DEDUP_SELECT = DEDUP_COLUMN_NAMES.join(', ');
export const SAGA_SELECT = SAGA_COLUMN_NAMES.join(', ');

const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** SQLite ≥ 3.35 and PostgreSQL return the row they wrote; MySQL has no RETURNING (MariaDB only on INSERT). */
export function hasReturning(dialect: SqlDialectName): boolean {
  return dialect !== 'mysql';
}

/**
 * Insert a `pending` row, atomically through the (scope, idempotency_key) primary key. SQLite and
 * PostgreSQL: `ON CONFLICT … DO NOTHING RETURNING` — one row back means this caller won. MySQL/MariaDB:
 * a plain INSERT whose duplicate-key error (ER_DUP_ENTRY) means the key exists. Neither `INSERT OR IGNORE`
 * nor `INSERT IGNORE`: both also swallow NOT NULL/CHECK violations, which would look like a duplicate.
 */
function insertPending(
  dialect: SqlDialectName,
  table: string,
  columns: readonly string[],
  literals: string,
  literalValues: string,
  values = marks(columns.length),
): string {
  const insert = `INSERT INTO ${table} (${columns.join(', ')}, ${literals}) VALUES (${values}, ${literalValues})`;
  return dialect === 'mysql' ? insert : `${insert} ON CONFLICT (scope, idempotency_key) DO NOTHING`;
}

/**
 * The dedup claim, without RETURNING (the store adds it where the dialect has it). With `clock` (the
 * server's clock, `serverClockSql`) the times are the server's: it binds CLAIM_COLUMNS with the lease
 * and the TTL in milliseconds in place of the three times (lease ms, TTL ms); without, the caller's
 * epoch times (lease expiry, now, now + TTL).
 */
export function claimSql(dialect: SqlDialectName, table: string, clock?: string): string {
  const values = clock === undefined ? undefined : `?, ?, ?, ?, ?, ?, ${clock} + ?, ${clock}, ${clock} + ?, ?`;
  return insertPending(dialect, table, CLAIM_COLUMNS, 'status, attempts', "'pending', 1", values);
}

/** The saga intent claim (binds SAGA_CLAIM_COLUMNS). */
export function sagaClaimSql(dialect: SqlDialectName, table: string): string {
  return insertPending(dialect, table, SAGA_CLAIM_COLUMNS, 'status', "'pending'");
}

/**
 * `claimSql` as a dialect's store runs it by default: on the server's clock where it has one, with
 * `RETURNING` (all columns) where the dialect has it.
 */
export function claimStatement(dialect: SqlDialectName, table: string): string {
  const sql = claimSql(dialect, table, serverClockSql(dialect));
  return hasReturning(dialect) ? `${sql} RETURNING ${DEDUP_SELECT}` : sql;
}
