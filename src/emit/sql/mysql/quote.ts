import type { TableName } from '../statements.js';

/** MySQL and MariaDB allow 64 characters per identifier. */
export const MAX_IDENTIFIER_LENGTH = 64;

/** A backtick-quoted identifier; an embedded backtick is doubled (MySQL manual, Schema Object Names). */
export function quoteIdentifier(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

export function quoteTable(table: TableName): string {
  return table.schema === undefined
    ? quoteIdentifier(table.name)
    : `${quoteIdentifier(table.schema)}.${quoteIdentifier(table.name)}`;
}

/** Quotes doubled and backslashes escaped, safe whether or not NO_BACKSLASH_ESCAPES is set. */
export function quoteLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
