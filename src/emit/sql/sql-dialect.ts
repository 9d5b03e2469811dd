import type { Dialect } from '../../config/types.js';
import type { Statement, TableName } from './statements.js';

/**
 * What a dialect folder (`postgres/`, `sqlite/`, `mysql/`) provides. Every folder has the same
 * files and exports (STYLE habit 5): quote.ts, column-type.ts, convert.ts, dml.ts, index.ts.
 */
export interface SqlDialect {
  name: Dialect;
  /** Human label for headers. */
  label: string;
  /** Longest identifier the engine keeps without truncating (PG NAMEDATALEN-1 = 63, MySQL 64). */
  maxIdentifierLength: number;
  /**
   * How `sql.schema` applies: PostgreSQL creates the schema; MySQL qualifies with the database
   * (which must exist); SQLite has no schemas (an attached database is a connection matter).
   */
  schemaMode: 'create' | 'qualify' | 'ignore';
  /**
   * Whether text columns of older store tables compared with trailing spaces padded away (MySQL/MariaDB):
   * their migrations then convert the identity columns of an existing table (`exact_columns`).
   */
  padsText: boolean;
  quoteIdentifier(name: string): string;
  quoteTable(table: TableName): string;
  quoteLiteral(value: string): string;
  /** One statement → SQL text ending in `;` (may be several statements for create_table). */
  convertStatement(stmt: Statement): string;
  /** Notes for the header of a migration that contains the given statements (re-runnability). */
  notes(statements: readonly Statement[]): string[];
  /** The claim (first-call) statement on the dedup table: insert a pending row or do nothing. */
  renderClaim(table: TableName): string;
  /** OP-4: the insert-or-ignore shape for an owned table, as SQL (not a comment). */
  renderOwnedInsert(table: TableName): string;
}
