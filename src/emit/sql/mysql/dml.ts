import { CLAIM_COLUMNS, OWNED_EXAMPLE_COLUMNS, OWNED_EXAMPLE_VALUES } from '../claim-columns.js';
import type { TableName } from '../statements.js';
import { quoteIdentifier, quoteTable } from './quote.js';

/**
 * Claim a key: affected rows 1 = this caller won, 0 = the key exists. MySQL has no RETURNING;
 * `INSERT IGNORE` reports the duplicate as a warning with zero affected rows (MySQL manual,
 * INSERT IGNORE). Unlike ON DUPLICATE KEY UPDATE its affected-row count does not depend on the
 * client's CLIENT_FOUND_ROWS flag.
 */
export function renderClaim(table: TableName): string {
  const columns = CLAIM_COLUMNS.map((c) => quoteIdentifier(c));
  const values = CLAIM_COLUMNS.map(() => '?');
  return [
    `INSERT IGNORE INTO ${quoteTable(table)} (${columns.join(', ')}, \`status\`, \`attempts\`)`,
    `VALUES (${values.join(', ')}, 'pending', 1);`,
  ].join('\n');
}

/** SOP OP-4 for MySQL/MariaDB: insert-or-ignore, then read the row back by its key. */
export function renderOwnedInsert(table: TableName): string {
  const key = quoteIdentifier('idempotency_key');
  return [
    `INSERT IGNORE INTO ${quoteTable(table)} (${OWNED_EXAMPLE_COLUMNS}, ${key})`,
    `VALUES (${OWNED_EXAMPLE_VALUES}, ?);`,
    `SELECT * FROM ${quoteTable(table)} WHERE ${key} = ?;`,
  ].join('\n');
}
