import type { SqlDialect } from '../sql-dialect.js';
import type { Statement } from '../statements.js';
import { convertStatement } from './convert.js';
import { renderClaim, renderOwnedInsert } from './dml.js';
import { MAX_IDENTIFIER_LENGTH, quoteIdentifier, quoteLiteral, quoteTable } from './quote.js';

/** Every PostgreSQL statement we emit has an IF [NOT] EXISTS form, so each file can run twice. */
function notes(_statements: readonly Statement[]): string[] {
  return ['Re-runnable: every statement uses IF [NOT] EXISTS.'];
}

export const dialect: SqlDialect = {
  name: 'postgres',
  label: 'PostgreSQL',
  maxIdentifierLength: MAX_IDENTIFIER_LENGTH,
  schemaMode: 'create',
  padsText: false,
  quoteIdentifier,
  quoteTable,
  quoteLiteral,
  convertStatement,
  notes,
  renderClaim,
  renderOwnedInsert,
};
