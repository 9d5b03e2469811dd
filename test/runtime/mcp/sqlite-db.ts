/** A fresh SQLite dedup database file, created by the generated migration (the schema's one source of truth). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { resolveConfig } from '../../../src/config/types.js';
import { renderStoreMigration } from '../../../src/emit/sql/index.js';

export function migratedSqliteFile(prefix: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const file = join(dir, 'dedup.sqlite');
  const db = new Database(file);
  db.exec(renderStoreMigration('sqlite', resolveConfig().sql, { saga: false }).up);
  db.close();
  return { dir, file };
}
