import type { TableName } from '../statements.js';

/** SQLite has no identifier limit; the portable limit is used so names work in every dialect. */
export const MAX_IDENTIFIER_LENGTH = 63;

/** A delimited identifier; an embedded `"` is doubled (SQLite "SQL As Understood", keywords). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** SQLite schemas are attached databases, a connection concern: tables stay unqualified. */
export function quoteTable(table: TableName): string {
  return table.schema === undefined
    ? quoteIdentifier(table.name)
    : `${quoteIdentifier(table.schema)}.${quoteIdentifier(table.name)}`;
}

export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
