import { assertNever, type ColumnType } from '../statements.js';

/** PostgreSQL: `text` has no length penalty; lengths are enforced by the runtime (docs/contracts.md). */
export function columnType(type: ColumnType): string {
  switch (type.kind) {
    case 'key':
    case 'exact':
    case 'hash':
    case 'text':
    case 'json':
      return 'text';
    case 'bigint':
      return 'bigint';
    case 'integer':
      return 'integer';
    default:
      return assertNever(type, 'column type');
  }
}
