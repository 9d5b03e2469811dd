import { OWNED_EXAMPLE_COLUMNS, OWNED_EXAMPLE_VALUES } from '../claim-columns.js';
import { claimStatement } from '@idemgen/runtime/internal/store/sql/statements.js';
import type { TableName } from '../statements.js';
import { quoteIdentifier, quoteTable } from './quote.js';

/**
 * The runtime's claim (runtime/store/sql/statements.ts) as PostgreSQL runs it: one row back = this caller
 * won; none = the key exists (read it). Binds $1…$10 in CLAIM_COLUMNS order.
 */
export function renderClaim(table: TableName): string {
  let n = 0;
  return `${claimStatement('postgres', quoteTable(table)).replace(/\?/g, () => `$${++n}`)};`;
}

/** unique-insert, docs/concepts.md#mechanisms: the database does the dedup; RETURNING tells the caller whether it inserted. */
export function renderOwnedInsert(table: TableName): string {
  return [
    `INSERT INTO ${quoteTable(table)} (${OWNED_EXAMPLE_COLUMNS}, ${quoteIdentifier('idempotency_key')})`,
    `VALUES (${OWNED_EXAMPLE_VALUES}, $1)`,
    `ON CONFLICT (${quoteIdentifier('idempotency_key')}) DO NOTHING`,
    'RETURNING *;',
  ].join('\n');
}
