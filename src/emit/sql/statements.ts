/**
 * The dialect-neutral DDL model (drizzle-kit style): migrations are lists of typed statements,
 * and each dialect folder converts every statement kind with an exhaustive switch.
 * Names in here are already validated (identifiers.ts); converters still quote every one.
 */
import type { StoreColumnType } from '@idemgen/runtime/internal/store/sql/schema.js';

/** Logical column types (the runtime's, runtime/store/sql/schema.ts); each dialect maps them in its `column-type.ts`. */
export type ColumnType = StoreColumnType;

export interface ColumnDef {
  name: string;
  type: ColumnType;
  notNull: boolean;
  /** A literal default: strings are quoted by the dialect, numbers written as is. */
  default?: string | number;
}

/** `schema` is absent when the table is unqualified (or the dialect has no schemas). */
export interface TableName {
  schema?: string;
  name: string;
}

export interface IndexDef {
  name: string;
  columns: string[];
  unique: boolean;
}

/** A `CHECK (column IN (...))` constraint: the only kind the store tables need. */
interface CheckDef {
  column: string;
  values: string[];
}

export interface TableDef {
  table: TableName;
  columns: ColumnDef[];
  primaryKey: string[];
  checks: CheckDef[];
  /** Secondary indexes; a dialect may declare them inline or as separate statements. */
  indexes: IndexDef[];
}

export type Statement =
  | { kind: 'create_schema'; schema: string }
  | { kind: 'create_table'; def: TableDef }
  | { kind: 'drop_table'; table: TableName }
  | { kind: 'create_index'; table: TableName; index: IndexDef }
  | { kind: 'drop_index'; table: TableName; index: IndexDef }
  | { kind: 'add_column'; table: TableName; column: ColumnDef }
  | { kind: 'drop_column'; table: TableName; column: ColumnDef }
  /**
   * An existing table's identity columns converted to their `exact` type, once and only where they are not
   * yet (re-runnable): tables made before the columns were `exact` (MySQL/MariaDB PAD SPACE).
   */
  | { kind: 'exact_columns'; table: TableName; columns: ColumnDef[] };

/** A migration before rendering: a name (`0001_idemgen_dedup`), a purpose, and both directions. */
export interface Migration {
  name: string;
  title: string;
  notes: string[];
  up: Statement[];
  down: Statement[];
  /** Commented example shown after the up statements (OP-4 insert shape). */
  example?: { table: TableName; operations: string[] };
}

/** Fails the build when a switch over a union forgets a case (STYLE habit 8). */
export function assertNever(value: never, what: string): never {
  throw new Error(`internal error: unhandled ${what}: ${JSON.stringify(value)}`);
}
