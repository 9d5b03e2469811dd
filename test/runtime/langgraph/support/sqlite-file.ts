import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { renderStoreMigration } from '../../../../src/emit/sql/index.js';
import { resolveConfig } from '../../../../src/config/types.js';

/** A fresh directory per test file, so parallel files never share a database. */
export function freshDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `idemgen-lg-${prefix}-`));
}

/** A SQLite file with the dedup table exactly as the generated migration creates it. */
export function migratedSqliteFile(dir: string, name = 'dedup.sqlite'): string {
  const file = join(dir, name);
  const db = new Database(file);
  db.exec(renderStoreMigration('sqlite', resolveConfig().sql, { saga: false }).up);
  db.close();
  return file;
}
