import { assertNever, type ColumnType } from '../statements.js';

/**
 * MySQL/MariaDB: key columns are VARCHAR with a binary collation so the key compare is exact
 * (the default *_ci collations would make `Key` and `key` the same idempotency key).
 * The primary key (scope 200 + key 255 characters × 4 bytes) fits InnoDB's 3072-byte limit.
 */
export function columnType(type: ColumnType): string {
  switch (type.kind) {
    case 'key':
      return `VARCHAR(${type.maxLength}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`;
    case 'hash':
      return 'CHAR(64) CHARACTER SET ascii COLLATE ascii_bin';
    case 'text':
      return 'TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';
    case 'json':
      return 'LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';
    case 'bigint':
      return 'BIGINT';
    case 'integer':
      return 'INT';
    default:
      return assertNever(type, 'column type');
  }
}
