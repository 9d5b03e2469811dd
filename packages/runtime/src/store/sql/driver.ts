/**
 * The small seam between the SQL stores and a database client. Statements are written once with
 * `?` placeholders in the SQL shared by SQLite ≥ 3.35, PostgreSQL and MySQL/MariaDB; the few that
 * differ (claim, RETURNING) are in statements.ts and returning.ts. Each driver adapts placeholders
 * and value types.
 */
import type { SqlDialectName } from './statements.js';

export interface SqlQueries {
  all(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Number of rows the WHERE matched (MySQL: with CLIENT_FOUND_ROWS, mysql2's default). */
  run(sql: string, params: readonly unknown[]): Promise<number>;
}

export interface SqlDriver extends SqlQueries {
  readonly dialect: SqlDialectName;
  /**
   * `fn` on one connection inside a transaction (MySQL only: it emulates UPDATE … RETURNING with an
   * UPDATE and a read of the locked row). Dialects with RETURNING never call it.
   */
  transaction?<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T>;
  /** Whether `err` is the primary-key violation of a plain INSERT (MySQL's claim). */
  isDuplicateKey?(err: unknown): boolean;
  close(): Promise<void>;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Table and schema names come from config: validate, then quote (never interpolate raw text).
 * MySQL quotes with backticks (double quotes are strings unless ANSI_QUOTES is set).
 */
function quoteIdent(name: string, what = 'identifier', dialect: SqlDialectName = 'sqlite'): string {
  if (!IDENT.test(name)) {
    throw new TypeError(`invalid ${what} ${JSON.stringify(name)}: use letters, digits and _ (≤ 63 chars)`);
  }
  return dialect === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

/** `schema` is a PostgreSQL schema, or the database on MySQL/MariaDB. */
export function qualifiedTable(table: string, schema?: string, dialect: SqlDialectName = 'sqlite'): string {
  const t = quoteIdent(table, 'table', dialect);
  return schema ? `${quoteIdent(schema, 'schema', dialect)}.${t}` : t;
}

/** BIGINT comes back from pg as a string; JSON columns may come back parsed. Normalize both. */
export function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

export function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}

export function textOrNull(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}
