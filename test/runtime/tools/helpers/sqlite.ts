/** A fresh SQLite dedup database (dedup + saga tables) created by the generated migration, and its store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { resolveConfig } from '../../../../src/config/types.js';
import { renderStoreMigration } from '../../../../src/emit/sql/index.js';
import type { DedupStore } from '../../../../packages/runtime/src/index.js';
import { createSqliteStore } from '../../../../packages/runtime/src/store/sqlite.js';

export function sqliteStore(prefix: string): { store: DedupStore; cleanup: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const filename = join(dir, 'dedup.sqlite');
  const db = new Database(filename);
  db.exec(renderStoreMigration('sqlite', resolveConfig().sql, { saga: true }).up);
  db.close();
  const store = createSqliteStore({ filename });
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
