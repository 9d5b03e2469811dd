import { describe, expect, test } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitSql, renderStoreMigration } from '../../../src/emit/sql/index.js';
import { buildShopPlan } from './plan-fixture.js';

const config = resolveConfig({ overrides: { 'POST /orders': { table: 'orders' } } });

describe('emitSql golden files', () => {
  const { files, diagnostics } = emitSql(buildShopPlan(), config);

  test('emits dedup, saga and owned-table migrations per dialect, nothing else', () => {
    expect(diagnostics).toEqual([]);
    const names = ['0001_idemgen_dedup', '0002_idemgen_saga', '0003_owned_orders'].flatMap((n) => [
      `${n}.down.sql`,
      `${n}.up.sql`,
    ]);
    expect(files.map((f) => f.path)).toEqual(
      ['mysql', 'postgres', 'sqlite'].flatMap((d) => names.map((n) => `sql/${d}/${n}`)),
    );
  });

  test.each(files.map((f) => [f.path, f.contents] as const))('%s matches its golden file', async (path, contents) => {
    await expect(contents).toMatchFileSnapshot(`./__snapshots__/${path}`);
  });

  test('output is deterministic, LF-only, without timestamps or absolute paths', () => {
    const again = emitSql(buildShopPlan(), config);
    expect(again.files).toEqual(files);
    for (const f of files) {
      expect(f.contents).toMatch(/^[\n\x20-\x7e]*$/);
      expect(f.contents.endsWith(';\n')).toBe(true);
      expect(f.contents).not.toMatch(/\d{4}-\d{2}-\d{2}|\/work\/|\/tmp\//);
    }
  });

  test('no saga migration without an OP-5 entry; no owned migration without an owned table', () => {
    const plan = buildShopPlan({ withSaga: false });
    plan.apis[0].entries.forEach((e) => {
      delete e.ownedTable;
    });
    const bare = emitSql(plan, resolveConfig({ dialects: ['postgres'] }));
    expect(bare.files.map((f) => f.path)).toEqual([
      'sql/postgres/0001_idemgen_dedup.down.sql',
      'sql/postgres/0001_idemgen_dedup.up.sql',
    ]);
  });

  test('an owned table named only in config overrides (by operationId) is picked up', () => {
    const plan = buildShopPlan();
    plan.apis[0].entries.forEach((e) => {
      delete e.ownedTable;
    });
    const out = emitSql(
      plan,
      resolveConfig({ dialects: ['sqlite'], overrides: { createOrder: { table: 'sales.orders' } } }),
    );
    expect(out.files.map((f) => f.path)).toContain('sql/sqlite/0003_owned_sales_orders.up.sql');
    const up = out.files.find((f) => f.path.endsWith('0003_owned_sales_orders.up.sql'))!.contents;
    expect(up).toContain('ALTER TABLE "sales"."orders" ADD COLUMN "idempotency_key" TEXT;');
    expect(up).toContain('--   used by POST /orders');
  });

  test('a table named on a non-OP-4 operation is reported, not altered', () => {
    const plan = buildShopPlan();
    const orders = plan.apis[0].entries.find((e) => e.operation.key === 'POST /orders')!;
    orders.mechanism = 'dedup-table';
    const out = emitSql(plan, resolveConfig({ dialects: ['postgres'] }));
    expect(out.files.some((f) => f.path.includes('owned'))).toBe(false);
    expect(out.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['owned_table_unused', '/overrides/POST ~1orders/table'],
    ]);
  });

  test('sql.schema: created on PostgreSQL, qualifying on MySQL, ignored (with a note) on SQLite', () => {
    const out = emitSql(buildShopPlan(), resolveConfig({ sql: { schema: 'app' } }));
    const up = (d: string): string => out.files.find((f) => f.path === `sql/${d}/0001_idemgen_dedup.up.sql`)!.contents;
    expect(up('postgres')).toContain('CREATE SCHEMA IF NOT EXISTS "app";');
    expect(up('postgres')).toContain('CREATE TABLE IF NOT EXISTS "app"."idemgen_dedup"');
    expect(up('mysql')).toContain('CREATE TABLE IF NOT EXISTS `app`.`idemgen_dedup`');
    expect(up('mysql')).not.toMatch(/CREATE (SCHEMA|DATABASE)/);
    expect(up('sqlite')).toContain('CREATE TABLE IF NOT EXISTS "idemgen_dedup"');
    expect(out.diagnostics.map((d) => [d.code, d.severity, d.pointer])).toEqual([
      ['sql_schema_ignored', 'info', '/sql/schema'],
    ]);
  });

  test('renderStoreMigration with saga = the 0001 and 0002 tables in one script', () => {
    for (const dialect of ['postgres', 'sqlite', 'mysql'] as const) {
      const both = renderStoreMigration(dialect, config.sql, { saga: true });
      const dedupOnly = renderStoreMigration(dialect, config.sql, { saga: false });
      expect(both.up).toMatch(/idemgen_dedup[\s\S]*idemgen_saga/);
      expect(dedupOnly.up).not.toContain('idemgen_saga');
      expect(both.down.indexOf('idemgen_saga')).toBeLessThan(both.down.indexOf('idemgen_dedup'));
    }
  });
});

test('an operation key with a newline cannot leave its SQL comment', () => {
  const plan = buildShopPlan();
  const orders = plan.apis[0].entries.find((e) => e.operation.key === 'POST /orders')!;
  orders.operation = { ...orders.operation, key: 'POST /orders\nDROP TABLE users; --' };
  const out = emitSql(plan, resolveConfig({ dialects: ['postgres'] }));
  const up = out.files.find((f) => f.path.endsWith('0003_owned_orders.up.sql'))!.contents;
  expect(up).toContain('--   used by POST /orders?DROP TABLE users; --');
  expect(
    up
      .split('\n')
      .filter((l) => l.includes('DROP TABLE users'))
      .every((l) => l.startsWith('--')),
  ).toBe(true);
});
