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
): string {
  const insert = `INSERT INTO ${table} (${columns.join(', ')}, ${literals}) VALUES (${marks(columns.length)}, ${literalValues})`;
  return dialect === 'mysql' ? insert : `${insert} ON CONFLICT (scope, idempotency_key) DO NOTHING`;
}

/** The dedup claim (binds CLAIM_COLUMNS), without RETURNING: the store adds it where the dialect has it. */
export function claimSql(dialect: SqlDialectName, table: string): string {
  return insertPending(dialect, table, CLAIM_COLUMNS, 'status, attempts', "'pending', 1");
}

/** The saga intent claim (binds SAGA_CLAIM_COLUMNS). */
export function sagaClaimSql(dialect: SqlDialectName, table: string): string {
  return insertPending(dialect, table, SAGA_CLAIM_COLUMNS, 'status', "'pending'");
}

/** `claimSql` as a dialect runs it: with `RETURNING` (all columns) where the dialect has it. */
export function claimStatement(dialect: SqlDialectName, table: string): string {
  return hasReturning(dialect) ? `${claimSql(dialect, table)} RETURNING ${DEDUP_SELECT}` : claimSql(dialect, table);
}
