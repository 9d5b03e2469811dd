import { deriveName } from './identifiers.js';
import type { ColumnDef, TableDef, TableName } from './statements.js';
import {
  DEDUP_STATUSES,
  DEDUP_TABLE_COLUMNS,
  EXACT_COLUMN_NAMES,
  SAGA_STATUSES,
  SAGA_TABLE_COLUMNS,
  STORE_PRIMARY_KEY,
} from '@idemgen/runtime/internal/store/sql/schema.js';

/**
 * The store tables' columns, primary key and statuses are the runtime's (runtime/store/sql/schema.ts):
 * the stores read and write exactly what these migrations create. This module adds what only DDL needs
 * (index names). The emitter imports the runtime, never the reverse.
 */

/** The column an OP-4 owned table gets (unique-insert, docs/concepts.md#mechanisms: unique constraint on the idempotency key). */
export const OWNED_KEY_COLUMN: ColumnDef = {
  name: 'idempotency_key',
  type: { kind: 'key', maxLength: 255 },
  notNull: false,
};

/** Reconcile scans stale pending rows; prune deletes expired ones (docs/contracts.md). */
function storeIndexes(table: TableName, maxLength: number): TableDef['indexes'] {
  return [
    {
      name: deriveName(table.name, '_reconcile_idx', maxLength),
      columns: ['status', 'lease_expires_at'],
      unique: false,
    },
    { name: deriveName(table.name, '_prune_idx', maxLength), columns: ['expires_at'], unique: false },
  ];
}

function storeTableDef(
  table: TableName,
  maxLength: number,
  columns: readonly ColumnDef[],
  statuses: readonly string[],
): TableDef {
  return {
    table,
    columns: columns.map((c) => ({ ...c })),
    primaryKey: [...STORE_PRIMARY_KEY],
    checks: [{ column: 'status', values: [...statuses] }],
    indexes: storeIndexes(table, maxLength),
  };
}

/** The dedup table of docs/contracts.md, column for column (dedup-table, docs/concepts.md#mechanisms). */
export function buildDedupTable(table: TableName, maxLength: number): TableDef {
  return storeTableDef(table, maxLength, DEDUP_TABLE_COLUMNS, DEDUP_STATUSES);
}

/** The saga intent table (saga, docs/concepts.md#mechanisms: record intent → call → completed with external id). */
export function buildSagaTable(table: TableName, maxLength: number): TableDef {
  return storeTableDef(table, maxLength, SAGA_TABLE_COLUMNS, SAGA_STATUSES);
}

/** The identity columns of a store table (`exact`), for converting an older table (`exact_columns`). */
export function exactColumnsOf(def: TableDef): ColumnDef[] {
  return def.columns.filter((c) => (EXACT_COLUMN_NAMES as readonly string[]).includes(c.name));
}
