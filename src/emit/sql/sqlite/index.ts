import type { SqlDialect } from '../sql-dialect.js';
import type { Statement } from '../statements.js';
import { convertStatement } from './convert.js';
import { renderClaim, renderOwnedInsert } from './dml.js';
import { MAX_IDENTIFIER_LENGTH, quoteIdentifier, quoteLiteral, quoteTable } from './quote.js';

/** SQLite's ALTER TABLE ADD/DROP COLUMN has no IF [NOT] EXISTS; everything else does. */
function notes(statements: readonly Statement[]): string[] {
  const alters = statements.some((s) => s.kind === 'add_column' || s.kind === 'drop_column');
  return [
    alters
      ? 'Runs once: SQLite has no IF [NOT] EXISTS for ALTER TABLE ADD/DROP COLUMN (DROP COLUMN needs SQLite >= 3.35).'
      : 'Re-runnable: every statement uses IF [NOT] EXISTS.',
  ];
}

export const dialect: SqlDialect = {
  name: 'sqlite',
  label: 'SQLite',
  maxIdentifierLength: MAX_IDENTIFIER_LENGTH,
  schemaMode: 'ignore',
  padsText: false,
  quoteIdentifier,
  quoteTable,
  quoteLiteral,
  convertStatement,
  notes,
  renderClaim,
  renderOwnedInsert,
};
