import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Statement } from '../../../src/emit/sql/statements.js';
import { SQL_DIALECTS } from '../../../src/emit/sql/index.js';

const DIALECTS = ['postgres', 'sqlite', 'mysql'] as const;
const srcDir = (d: string): URL => new URL(`../../../src/emit/sql/${d}/`, import.meta.url);
const templateDir = (d: string): URL => new URL(`../../../templates/sql/${d}/`, import.meta.url);

describe('every dialect folder has the same shape (STYLE habit 5)', () => {
  test('same source files', () => {
    const files = DIALECTS.map((d) => readdirSync(srcDir(d)).sort());
    expect(files[1]).toEqual(files[0]);
    expect(files[2]).toEqual(files[0]);
  });

  test('same exports from each source file', async () => {
    for (const file of readdirSync(srcDir('postgres'))) {
      const exports = await Promise.all(
        DIALECTS.map(async (d) =>
          Object.keys(await import(new URL(file.replace(/\.ts$/, '.js'), srcDir(d)).href)).sort(),
        ),
      );
      expect(exports[1], file).toEqual(exports[0]);
      expect(exports[2], file).toEqual(exports[0]);
    }
  });

  test('same templates, except create-schema which only PostgreSQL (schemaMode "create") uses', () => {
    const names = DIALECTS.map((d) => readdirSync(templateDir(d)).sort());
    expect(names[0].filter((n) => n !== 'create-schema.sql.hbs')).toEqual(names[1]);
    expect(names[2]).toEqual(names[1]);
    expect(DIALECTS.filter((d) => SQL_DIALECTS[d].schemaMode === 'create')).toEqual(['postgres']);
  });

  test('a converter refuses a statement its dialect cannot express instead of returning empty SQL', () => {
    const stmt: Statement = { kind: 'create_schema', schema: 'app' };
    expect(() => SQL_DIALECTS.sqlite.convertStatement(stmt)).toThrow(/internal error/);
    expect(() => SQL_DIALECTS.mysql.convertStatement(stmt)).toThrow(/internal error/);
    expect(SQL_DIALECTS.postgres.convertStatement(stmt)).toBe('CREATE SCHEMA IF NOT EXISTS "app";');
  });
});
