import { OWNED_EXAMPLE_COLUMNS, OWNED_EXAMPLE_VALUES } from '../claim-columns.js';
import { claimStatement } from '@idemgen/runtime/internal/store/sql/statements.js';
import type { TableName } from '../statements.js';
import { quoteIdentifier, quoteTable } from './quote.js';

/**
 * The runtime's claim (runtime/store/sql/statements.ts): a plain INSERT; ER_DUP_ENTRY = the key exists.
 * Not `INSERT IGNORE`: it turns NOT NULL/CHECK violations into warnings too, a broken row would look like
 * a duplicate. MySQL has no RETURNING: the winner reads its row back by key.
 */
export function renderClaim(table: TableName): string {
  return `${claimStatement('mysql', quoteTable(table))};`;
}

/** unique-insert, docs/concepts.md#mechanisms for MySQL/MariaDB: insert-or-ignore, then read the row back by its key. */
export function renderOwnedInsert(table: TableName): string {
  const key = quoteIdentifier('idempotency_key');
  return [
    `INSERT IGNORE INTO ${quoteTable(table)} (${OWNED_EXAMPLE_COLUMNS}, ${key})`,
    `VALUES (${OWNED_EXAMPLE_VALUES}, ?);`,
    `SELECT * FROM ${quoteTable(table)} WHERE ${key} = ?;`,
  ].join('\n');
}
