import type { SqlDialect } from '../sql-dialect.js';
import type { Statement } from '../statements.js';
import { convertStatement } from './convert.js';
import { renderClaim, renderOwnedInsert } from './dml.js';
import { MAX_IDENTIFIER_LENGTH, quoteIdentifier, quoteLiteral, quoteTable } from './quote.js';

/**
 * CREATE/DROP TABLE IF [NOT] EXISTS work on MySQL 8 and MariaDB; the IF forms of CREATE INDEX and
 * ALTER TABLE … COLUMN are MariaDB-only, so files containing them run once. Indexes of our own
 * tables are declared inside CREATE TABLE to keep those files re-runnable.
 */
function notes(statements: readonly Statement[]): string[] {
  const once = statements.some(
    (s) => s.kind === 'add_column' || s.kind === 'drop_column' || s.kind === 'create_index' || s.kind === 'drop_index',
  );
  const exact = statements.some((s) => s.kind === 'exact_columns');
  return [
    once
      ? 'Runs once: MySQL 8 has no IF [NOT] EXISTS for ALTER TABLE columns and indexes.'
      : 'Re-runnable: CREATE/DROP TABLE IF [NOT] EXISTS, indexes declared inline.',
    ...(exact
      ? [
          'A table made before scope and idempotency_key were VARBINARY (utf8mb4_bin is PAD SPACE: "a" = "a  ") is',
          'converted by a prepared ALTER TABLE that runs only while a column is not VARBINARY yet.',
        ]
      : []),
    'golang-migrate: several statements per file need multiStatements=true in the DSN.',
  ];
}

export const dialect: SqlDialect = {
  name: 'mysql',
  label: 'MySQL/MariaDB',
  maxIdentifierLength: MAX_IDENTIFIER_LENGTH,
  schemaMode: 'qualify',
  padsText: true,
  quoteIdentifier,
  quoteTable,
  quoteLiteral,
  convertStatement,
  notes,
  renderClaim,
  renderOwnedInsert,
};
