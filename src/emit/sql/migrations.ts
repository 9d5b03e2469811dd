import type { SqlDialect } from './sql-dialect.js';
import type { Migration, Statement, TableDef, TableName } from './statements.js';
import { deriveName } from './identifiers.js';
import { buildDedupTable, buildSagaTable, exactColumnsOf, OWNED_KEY_COLUMN } from './tables.js';

const TIMES_NOTE =
  'Times are epoch milliseconds; rows expire at expires_at (prune) and stale pending rows are found by (status, lease_expires_at) (reconcile).';

export interface StoreTableNames {
  schema?: string;
  dedupTable: string;
  sagaTable: string;
}

/** Where the store tables live in this dialect (schemaMode decides whether `schema` applies). */
export function storeTable(dialect: SqlDialect, schema: string | undefined, name: string): TableName {
  return schema !== undefined && dialect.schemaMode !== 'ignore' ? { schema, name } : { name };
}

function schemaStatements(dialect: SqlDialect, schema: string | undefined): Statement[] {
  return schema !== undefined && dialect.schemaMode === 'create' ? [{ kind: 'create_schema', schema }] : [];
}

/** CREATE TABLE IF NOT EXISTS, then (where text used to pad) an existing table's identity columns made exact. */
function createStoreTable(dialect: SqlDialect, def: TableDef): Statement[] {
  const create: Statement = { kind: 'create_table', def };
  if (!dialect.padsText) return [create];
  return [create, { kind: 'exact_columns', table: def.table, columns: exactColumnsOf(def) }];
}

/** 0001: the dedup table (dedup-table, docs/concepts.md#mechanisms and #outcomes). The schema is never dropped: it may hold other things. */
export function buildDedupMigration(dialect: SqlDialect, names: StoreTableNames): Migration {
  const table = storeTable(dialect, names.schema, names.dedupTable);
  return {
    name: '0001_idemgen_dedup',
    title: 'dedup table (dedup-table, OP-2)',
    notes: [TIMES_NOTE],
    up: [
      ...schemaStatements(dialect, names.schema),
      ...createStoreTable(dialect, buildDedupTable(table, dialect.maxIdentifierLength)),
    ],
    down: [{ kind: 'drop_table', table }],
  };
}

/** 0002: the saga intent table, only when an OP-5 operation is planned. */
export function buildSagaMigration(dialect: SqlDialect, names: StoreTableNames): Migration {
  const table = storeTable(dialect, names.schema, names.sagaTable);
  return {
    name: '0002_idemgen_saga',
    title: 'saga intent table (saga, OP-5)',
    notes: [TIMES_NOTE],
    up: [
      ...schemaStatements(dialect, names.schema),
      ...createStoreTable(dialect, buildSagaTable(table, dialect.maxIdentifierLength)),
    ],
    down: [{ kind: 'drop_table', table }],
  };
}

/** Both store tables in one script: what the runtime stores' tests create (renderStoreMigration). */
export function buildStoreMigration(dialect: SqlDialect, names: StoreTableNames, saga: boolean): Migration {
  const dedup = buildDedupMigration(dialect, names);
  if (!saga) return dedup;
  const sagaPart = buildSagaMigration(dialect, names);
  return {
    name: 'idemgen_store',
    title: 'dedup table and saga intent table (dedup-table OP-2, saga OP-5)',
    notes: [TIMES_NOTE],
    up: [...dedup.up, ...sagaPart.up.filter((s) => s.kind !== 'create_schema')],
    down: [...sagaPart.down, ...dedup.down],
  };
}

function ownedMigrationName(sequence: number, table: TableName): string {
  const base = table.schema === undefined ? table.name : `${table.schema}_${table.name}`;
  return `${String(sequence).padStart(4, '0')}_owned_${base}`;
}

/** 0003+: an owned table gets a nullable unique idempotency_key column (unique-insert, docs/concepts.md#mechanisms). */
export function buildOwnedMigration(
  dialect: SqlDialect,
  sequence: number,
  table: TableName,
  operations: string[],
): Migration {
  const index = {
    name: deriveName(table.name, '_idempotency_key_uidx', dialect.maxIdentifierLength),
    columns: [OWNED_KEY_COLUMN.name],
    unique: true,
  };
  return {
    name: ownedMigrationName(sequence, table),
    title: 'unique idempotency key on an owned table (unique-insert, OP-4)',
    notes: ['Existing rows keep a NULL key; NULLs never collide in a unique index.'],
    up: [
      { kind: 'add_column', table, column: OWNED_KEY_COLUMN },
      { kind: 'create_index', table, index },
    ],
    down: [
      { kind: 'drop_index', table, index },
      { kind: 'drop_column', table, column: OWNED_KEY_COLUMN },
    ],
    example: { table, operations },
  };
}
