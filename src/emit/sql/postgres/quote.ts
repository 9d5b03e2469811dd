import type { TableName } from '../statements.js';

/** PostgreSQL keeps 63 bytes of an identifier (NAMEDATALEN - 1) and truncates the rest. */
export const MAX_IDENTIFIER_LENGTH = 63;

/** A delimited identifier; an embedded `"` is doubled (PostgreSQL docs §4.1.1). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteTable(table: TableName): string {
  return table.schema === undefined
    ? quoteIdentifier(table.name)
    : `${quoteIdentifier(table.schema)}.${quoteIdentifier(table.name)}`;
}

/** A standard string literal (standard_conforming_strings is on since 9.1: backslash is literal). */
export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
