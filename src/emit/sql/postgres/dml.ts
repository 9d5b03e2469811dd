import { CLAIM_COLUMNS, OWNED_EXAMPLE_COLUMNS, OWNED_EXAMPLE_VALUES } from '../claim-columns.js';
import type { TableName } from '../statements.js';
import { quoteIdentifier, quoteTable } from './quote.js';

/** Claim a key: one row back = this caller won; none = the key exists (read it). Binds $1…$9. */
export function renderClaim(table: TableName): string {
  const columns = CLAIM_COLUMNS.map((c) => quoteIdentifier(c));
  const values = CLAIM_COLUMNS.map((_, i) => `$${i + 1}`);
  return [
    `INSERT INTO ${quoteTable(table)} (${columns.join(', ')}, "status", "attempts")`,
    `VALUES (${values.join(', ')}, 'pending', 1)`,
    'ON CONFLICT ("scope", "idempotency_key") DO NOTHING',
    'RETURNING "idempotency_key", "lease_token";',
  ].join('\n');
}

/** SOP OP-4: the database does the dedup; RETURNING tells the caller whether it inserted. */
export function renderOwnedInsert(table: TableName): string {
  return [
    `INSERT INTO ${quoteTable(table)} (${OWNED_EXAMPLE_COLUMNS}, ${quoteIdentifier('idempotency_key')})`,
    `VALUES (${OWNED_EXAMPLE_VALUES}, $1)`,
    `ON CONFLICT (${quoteIdentifier('idempotency_key')}) DO NOTHING`,
    'RETURNING *;',
  ].join('\n');
}
