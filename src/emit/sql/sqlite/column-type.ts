import { assertNever, type ColumnType } from '../statements.js';

/** SQLite storage classes (type affinity): TEXT for strings, INTEGER (64-bit) for times and counts. */
export function columnType(type: ColumnType): string {
  switch (type.kind) {
    case 'key':
    case 'exact':
    case 'hash':
    case 'text':
    case 'json':
      return 'TEXT';
    case 'bigint':
    case 'integer':
      return 'INTEGER';
    default:
      return assertNever(type, 'column type');
  }
}
