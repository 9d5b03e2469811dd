import { assertNever, type ColumnType } from '../statements.js';

/**
 * MySQL/MariaDB: key columns are VARCHAR with a binary collation (the default *_ci collations would make
 * `Key` and `key` the same). `utf8mb4_bin` is still PAD SPACE (MySQL 8 and MariaDB: `'alice' = 'alice   '`),
 * and the no-pad binary collations differ by engine (`utf8mb4_nopad_bin` on MariaDB only,
 * `utf8mb4_0900_bin` on MySQL only), so the row's identity columns are VARBINARY: bytes compare exactly on
 * both. Their width is the character limit × 4 (UTF-8); the primary key (800 + 1020 bytes) fits InnoDB's
 * 3072-byte limit.
 */
export function columnType(type: ColumnType): string {
  switch (type.kind) {
    case 'key':
      return `VARCHAR(${type.maxLength}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`;
    case 'exact':
      return `VARBINARY(${type.maxLength * 4})`;
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
