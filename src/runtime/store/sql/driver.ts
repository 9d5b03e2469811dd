/**
 * The small seam between the SQL stores and a database client. Statements are written once with
 * `?` placeholders in the SQL shared by SQLite ≥ 3.35 and PostgreSQL (ON CONFLICT … DO NOTHING,
 * RETURNING); each driver adapts placeholders and value types.
 */
export interface SqlDriver {
  readonly dialect: 'sqlite' | 'postgres';
  all(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Number of rows changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
  close(): Promise<void>;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Table and schema names come from config: validate, then quote (never interpolate raw text). */
export function quoteIdent(name: string, what = 'identifier'): string {
  if (!IDENT.test(name)) {
    throw new TypeError(`invalid ${what} ${JSON.stringify(name)}: use letters, digits and _ (≤ 63 chars)`);
  }
  return `"${name}"`;
}

export function qualifiedTable(table: string, schema?: string): string {
  return schema ? `${quoteIdent(schema, 'schema')}.${quoteIdent(table, 'table')}` : quoteIdent(table, 'table');
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
