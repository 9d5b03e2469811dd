import { deriveName } from './identifiers.js';
import type { ColumnDef, ColumnType, TableDef, TableName } from './statements.js';

/** DESIGN §5: one state machine in every store. */
const DEDUP_STATUSES = ['pending', 'completed', 'failed'] as const;
/** OP-5 saga: intent → completed, or compensated after reconciliation. */
const SAGA_STATUSES = ['pending', 'completed', 'compensating', 'compensated', 'failed'] as const;

/** The column an OP-4 owned table gets (SOP OP-4: unique constraint on the idempotency key). */
export const OWNED_KEY_COLUMN: ColumnDef = { name: 'idempotency_key', type: { kind: 'key', maxLength: 255 }, notNull: false };

const SCOPE: ColumnType = { kind: 'key', maxLength: 200 };
const KEY: ColumnType = { kind: 'key', maxLength: 255 };
const OPERATION: ColumnType = { kind: 'key', maxLength: 200 };
const STATUS: ColumnType = { kind: 'key', maxLength: 16 };
const LEASE_TOKEN: ColumnType = { kind: 'key', maxLength: 64 };
const BIGINT: ColumnType = { kind: 'bigint' };

function col(name: string, type: ColumnType, notNull: boolean, dflt?: string | number): ColumnDef {
  return dflt === undefined ? { name, type, notNull } : { name, type, notNull, default: dflt };
}

/** Reconcile scans stale pending rows; prune deletes expired ones (docs/contracts.md). */
function storeIndexes(table: TableName, maxLength: number): TableDef['indexes'] {
  return [
    { name: deriveName(table.name, '_reconcile_idx', maxLength), columns: ['status', 'lease_expires_at'], unique: false },
    { name: deriveName(table.name, '_prune_idx', maxLength), columns: ['expires_at'], unique: false },
  ];
}

/** The dedup table of docs/contracts.md, column for column (SOP OP-2, Step 6). */
export function buildDedupTable(table: TableName, maxLength: number): TableDef {
  return {
    table,
    columns: [
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
    ],
    primaryKey: ['scope', 'idempotency_key'],
    checks: [{ column: 'status', values: [...DEDUP_STATUSES] }],
    indexes: storeIndexes(table, maxLength),
  };
}

/** The saga intent table (SOP OP-5: record intent → call → completed with external id). */
export function buildSagaTable(table: TableName, maxLength: number): TableDef {
  return {
    table,
    columns: [
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
    ],
    primaryKey: ['scope', 'idempotency_key'],
    checks: [{ column: 'status', values: [...SAGA_STATUSES] }],
    indexes: storeIndexes(table, maxLength),
  };
}
