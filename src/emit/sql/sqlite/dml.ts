import { CLAIM_COLUMNS, OWNED_EXAMPLE_COLUMNS, OWNED_EXAMPLE_VALUES } from '../claim-columns.js';
import type { TableName } from '../statements.js';
import { quoteIdentifier, quoteTable } from './quote.js';

/**
 * Claim a key: one row back = this caller won. `ON CONFLICT … DO NOTHING` (SQLite ≥ 3.24) rather
 * than `INSERT OR IGNORE`: OR IGNORE also swallows NOT NULL and CHECK failures, which would look
 * like "duplicate" to the caller.
 */
export function renderClaim(table: TableName): string {
  const columns = CLAIM_COLUMNS.map((c) => quoteIdentifier(c));
  const values = CLAIM_COLUMNS.map(() => '?');
  return [
    `INSERT INTO ${quoteTable(table)} (${columns.join(', ')}, "status", "attempts")`,
    `VALUES (${values.join(', ')}, 'pending', 1)`,
    'ON CONFLICT ("scope", "idempotency_key") DO NOTHING',
    'RETURNING "idempotency_key", "lease_token";',
  ].join('\n');
}

/**
 * SOP OP-4 for SQLite ≥ 3.35 (RETURNING). The SOP's `INSERT OR IGNORE … RETURNING *` has the same
 * shape but also hides NOT NULL/CHECK violations, so the conflict target is named instead.
 */
export function renderOwnedInsert(table: TableName): string {
  return [
    `INSERT INTO ${quoteTable(table)} (${OWNED_EXAMPLE_COLUMNS}, ${quoteIdentifier('idempotency_key')})`,
    `VALUES (${OWNED_EXAMPLE_VALUES}, ?)`,
    `ON CONFLICT (${quoteIdentifier('idempotency_key')}) DO NOTHING`,
    'RETURNING *;',
  ].join('\n');
}
