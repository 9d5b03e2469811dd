/**
 * The store tables, column for column (docs/contracts.md) — owned by the runtime that reads and writes
 * them. The migration emitter (`src/emit/sql/tables.ts`) renders its DDL from these definitions, and the
 * stores' SELECT lists come from the same arrays, so a column cannot exist on one side only.
 */

/** Logical column types; each dialect of the emitter maps them to its own (`column-type.ts`). */
export type StoreColumnType =
  /** Short text that is compared exactly and may be indexed (operation, status, lease token). */
  | { kind: 'key'; maxLength: number }
  /**
   * The row's identity (scope, idempotency key): compared byte for byte, never with trailing spaces padded
   * away or case folded (MySQL/MariaDB: VARBINARY, as every `*_bin` collation there is PAD SPACE).
   */
  | { kind: 'exact'; maxLength: number }
  /** SHA-256 hex digest (64 characters). */
  | { kind: 'hash' }
  /** Free text of moderate size (an external id). */
  | { kind: 'text' }
  /** JSON documents of unbounded size (stored results and errors). */
  | { kind: 'json' }
  /** Epoch milliseconds (times are BIGINT everywhere). */
  | { kind: 'bigint' }
  | { kind: 'integer' };

export interface StoreColumn {
  name: string;
  type: StoreColumnType;
  notNull: boolean;
  /** A literal default: strings are quoted by the dialect, numbers written as is. */
  default?: string | number;
}

/** docs/concepts.md#outcomes: one state machine in every store. */
export const DEDUP_STATUSES = ['pending', 'completed', 'failed'] as const;
/** The saga intent table: intent → completed, or compensated after reconciliation. */
export const SAGA_STATUSES = ['pending', 'completed', 'compensating', 'compensated', 'failed'] as const;

const SCOPE: StoreColumnType = { kind: 'exact', maxLength: 200 };
const KEY: StoreColumnType = { kind: 'exact', maxLength: 255 };
const OPERATION: StoreColumnType = { kind: 'key', maxLength: 200 };
const STATUS: StoreColumnType = { kind: 'key', maxLength: 16 };
const LEASE_TOKEN: StoreColumnType = { kind: 'key', maxLength: 64 };
const BIGINT: StoreColumnType = { kind: 'bigint' };

function col(name: string, type: StoreColumnType, notNull: boolean, dflt?: string | number): StoreColumn {
  return dflt === undefined ? { name, type, notNull } : { name, type, notNull, default: dflt };
}

/** Both tables: primary key (scope, idempotency_key); a CHECK on status. */
export const STORE_PRIMARY_KEY = ['scope', 'idempotency_key'] as const;

/** Columns of kind `exact`: what an older table (made when they were `key`) converts (emit/sql `exact_columns`). */
export const EXACT_COLUMN_NAMES = ['scope', 'idempotency_key'] as const;

/** The dedup table (dedup-table, docs/concepts.md#mechanisms). */
export const DEDUP_TABLE_COLUMNS: readonly StoreColumn[] = [
  col('scope', SCOPE, true, ''),
  col('idempotency_key', KEY, true),
  col('operation', OPERATION, true),
  col('args_hash', { kind: 'hash' }, true),
  col('mechanism', { kind: 'key', maxLength: 16 }, true),
  col('status', STATUS, true),
  col('result', { kind: 'json' }, false),
  col('error', { kind: 'json' }, false),
  col('external_id', { kind: 'text' }, false),
  col('lease_token', LEASE_TOKEN, false),
  col('lease_expires_at', BIGINT, false),
  col('attempts', { kind: 'integer' }, true, 0),
  col('created_at', BIGINT, true),
  col('completed_at', BIGINT, false),
  col('expires_at', BIGINT, true),
  // What reconcile shows an operator: an argument summary taken at claim time (shape and sizes
  // by default, no values) and who resolved an unknown outcome, when, how and why.
  col('args_summary', { kind: 'json' }, false),
  col('resolution', { kind: 'json' }, false),
];

/** The saga intent table (saga, docs/concepts.md#mechanisms: record intent → call → completed with external id). */
export const SAGA_TABLE_COLUMNS: readonly StoreColumn[] = [
  col('scope', SCOPE, true, ''),
  col('idempotency_key', KEY, true),
  col('operation', OPERATION, true),
  col('args_hash', { kind: 'hash' }, true),
  col('status', STATUS, true),
  col('external_id', { kind: 'text' }, false),
  col('compensation_operation', OPERATION, false),
  col('result', { kind: 'json' }, false),
  col('error', { kind: 'json' }, false),
  col('lease_token', LEASE_TOKEN, false),
  col('lease_expires_at', BIGINT, false),
  col('created_at', BIGINT, true),
  col('updated_at', BIGINT, true),
  col('expires_at', BIGINT, true),
];

export const DEDUP_COLUMN_NAMES = DEDUP_TABLE_COLUMNS.map((c) => c.name);
export const SAGA_COLUMN_NAMES = SAGA_TABLE_COLUMNS.map((c) => c.name);
