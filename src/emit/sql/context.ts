import type { ColumnDef, ColumnType, IndexDef, TableDef, TableName } from './statements.js';

/**
 * Template contexts built from statements. Every identifier and literal passes through the
 * dialect's quoting functions here, so templates only ever see already-quoted text.
 */
export interface Quoting {
  quoteIdentifier(name: string): string;
  quoteTable(table: TableName): string;
  quoteLiteral(value: string): string;
  columnType(type: ColumnType): string;
}

export interface ColumnContext {
  name: string;
  /** The quoted name padded to align the column list. */
  paddedName: string;
  type: string;
  notNull: boolean;
  default: string | null;
}

function columnContext(column: ColumnDef, q: Quoting, width = 0): ColumnContext {
  const name = q.quoteIdentifier(column.name);
  const dflt =
    column.default === undefined
      ? null
      : typeof column.default === 'number'
        ? String(column.default)
        : q.quoteLiteral(column.default);
  return {
    name,
    paddedName: name.padEnd(width),
    type: q.columnType(column.type),
    notNull: column.notNull,
    default: dflt,
  };
}

export interface IndexContext {
  table: string;
  name: string;
  /** The index name qualified with the table's schema (PostgreSQL DROP INDEX needs it). */
  qualifiedName: string;
  columns: string;
  unique: boolean;
}

export function indexContext(table: TableName, index: IndexDef, q: Quoting): IndexContext {
  return {
    table: q.quoteTable(table),
    name: q.quoteIdentifier(index.name),
    qualifiedName: q.quoteTable({ schema: table.schema, name: index.name }),
    columns: index.columns.map((c) => q.quoteIdentifier(c)).join(', '),
    unique: index.unique,
  };
}

export interface TableContext {
  table: string;
  columns: ColumnContext[];
  primaryKey: string;
  checks: { column: string; values: string }[];
  indexes: IndexContext[];
}

export function tableContext(def: TableDef, q: Quoting): TableContext {
  const width = Math.max(...def.columns.map((c) => q.quoteIdentifier(c.name).length));
  return {
    table: q.quoteTable(def.table),
    columns: def.columns.map((c) => columnContext(c, q, width)),
    primaryKey: def.primaryKey.map((c) => q.quoteIdentifier(c)).join(', '),
    checks: def.checks.map((c) => ({
      column: q.quoteIdentifier(c.column),
      values: c.values.map((v) => q.quoteLiteral(v)).join(', '),
    })),
    indexes: def.indexes.map((i) => indexContext(def.table, i, q)),
  };
}

export function columnChangeContext(
  table: TableName,
  column: ColumnDef,
  q: Quoting,
): { table: string; column: ColumnContext } {
  return { table: q.quoteTable(table), column: columnContext(column, q) };
}

/**
 * `exact_columns`: the table as an identifier and as literals (the catalog lookup), the column names as
 * literals, and the conversion's text as one literal (MySQL runs it through PREPARE only when needed).
 */
export function exactColumnsContext(
  table: TableName,
  columns: readonly ColumnDef[],
  q: Quoting,
): { table: string; schemaName: string | null; tableName: string; names: string; alter: string } {
  const modify = columns.map((c) => {
    const col = columnContext(c, q);
    return `MODIFY ${col.name} ${col.type}${col.notNull ? ' NOT NULL' : ''}${col.default !== null ? ` DEFAULT ${col.default}` : ''}`;
  });
  return {
    table: q.quoteTable(table),
    schemaName: table.schema === undefined ? null : q.quoteLiteral(table.schema),
    tableName: q.quoteLiteral(table.name),
    names: columns.map((c) => q.quoteLiteral(c.name)).join(', '),
    alter: q.quoteLiteral(`ALTER TABLE ${q.quoteTable(table)} ${modify.join(', ')}`),
  };
}
