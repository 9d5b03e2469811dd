import { OWNED_EXAMPLE_COLUMNS, OWNED_EXAMPLE_VALUES } from '../claim-columns.js';
import { claimStatement } from '@idemgen/runtime/internal/store/sql/statements.js';
import type { TableName } from '../statements.js';
import { quoteIdentifier, quoteTable } from './quote.js';

/**
 * The runtime's claim (runtime/store/sql/statements.ts): one row back = this caller won.
 * `ON CONFLICT … DO NOTHING` rather than `INSERT OR IGNORE`, which also swallows NOT NULL and CHECK failures.
 */
export function renderClaim(table: TableName): string {
  return `${claimStatement('sqlite', quoteTable(table))};`;
}

/**
 * unique-insert, docs/concepts.md#mechanisms for SQLite ≥ 3.35 (RETURNING). The common `INSERT OR IGNORE … RETURNING *` has the same
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
