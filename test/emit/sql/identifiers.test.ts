import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { resolveConfig, type UserConfig } from '../../../src/config/types.js';
import { ConfigError } from '../../../src/diagnostics/diagnostic.js';
import { emitSql, renderStoreMigration, SQL_DIALECTS } from '../../../src/emit/sql/index.js';
import { deriveName } from '../../../src/emit/sql/identifiers.js';
import { buildShopPlan } from './plan-fixture.js';

const HOSTILE = [
  ['double quote', 'dedup"; DROP TABLE users; --'],
  ['backtick', 'dedup`; DROP TABLE users; --'],
  ['single quote', "it's"],
  ['semicolon', 'a;b'],
  ['line comment', 'dedup--x'],
  ['block comment', 'dedup/*x*/'],
  ['space', 'my table'],
  ['dot', 'a.b'],
  ['newline', 'a\nb'],
  ['unicode letter', 'dédup'],
  ['zero-width space', 'de\u200bdup'],
  ['leading digit', '1dedup'],
  ['200 characters', 'a'.repeat(200)],
  ['64 characters', 'a'.repeat(64)],
  ['empty', ''],
] as const;

const KEYS = [
  ['schema', '/sql/schema', (n: string): UserConfig => ({ sql: { schema: n } })],
  ['tablePrefix', '/sql/tablePrefix', (n: string): UserConfig => ({ sql: { tablePrefix: n } })],
  ['dedupTable', '/sql/dedupTable', (n: string): UserConfig => ({ sql: { dedupTable: n } })],
  ['sagaTable', '/sql/sagaTable', (n: string): UserConfig => ({ sql: { sagaTable: n } })],
] as const;

describe('hostile names in config are rejected with a diagnostic at the config key', () => {
  const cases = KEYS.flatMap(([key, pointer, make]) =>
    HOSTILE.map(([label, name]) => [key, label, name, pointer, make] as const),
  )
    // An empty prefix is legal (tables are then named `dedup`, `saga`).
    .filter(([key, , name]) => !(key === 'tablePrefix' && name === ''));

  test.each(cases)('sql.%s = %s', (_key, _label, name, pointer, make) => {
    const config = resolveConfig(make(name), 'idemgen.config.json');
    const out = emitSql(buildShopPlan(), config);
    expect(out.files).toEqual([]);
    expect(out.diagnostics.map((d) => [d.code, d.severity, d.pointer, d.file])).toEqual([
      ['invalid_sql_identifier', 'error', pointer, 'idemgen.config.json'],
    ]);
    expect(() => renderStoreMigration('postgres', config.sql, { saga: true })).toThrow(ConfigError);
  });

  test.each(HOSTILE.filter(([, n]) => n !== 'a.b'))('owned table %s in overrides', (_label, name) => {
    const config = resolveConfig({ overrides: { 'POST /orders': { table: name } } }, 'idemgen.config.yaml');
    const plan = buildShopPlan({ ownedTable: name });
    const out = emitSql(plan, config);
    expect(out.files).toEqual([]);
    expect(out.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['invalid_sql_identifier', '/overrides/POST ~1orders/table'],
    ]);
  });

  test('an empty prefix is accepted and gives plain table names', () => {
    const out = emitSql(buildShopPlan(), resolveConfig({ sql: { tablePrefix: '' }, dialects: ['postgres'] }));
    expect(out.diagnostics).toEqual([]);
    expect(out.files.find((f) => f.path.endsWith('0001_idemgen_dedup.up.sql'))!.contents).toContain(
      'CREATE TABLE IF NOT EXISTS "dedup"',
    );
  });

  test('a qualified owned table (schema.table) is accepted; three parts are not', () => {
    const ok = emitSql(buildShopPlan({ ownedTable: 'sales.orders' }), resolveConfig({ dialects: ['postgres'] }));
    expect(ok.diagnostics).toEqual([]);
    const bad = emitSql(buildShopPlan({ ownedTable: 'a.b.c' }), resolveConfig({ dialects: ['postgres'] }));
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['invalid_sql_identifier']);
  });
});

describe('quoting is safe even for names the policy would reject (defence in depth)', () => {
  test.each(Object.values(SQL_DIALECTS).map((d) => [d.name, d] as const))('%s doubles its quote character', (_n, d) => {
    const q = d.quoteIdentifier(d.name === 'mysql' ? 'a`b' : 'a"b');
    expect(q).toBe(d.name === 'mysql' ? '`a``b`' : '"a""b"');
    expect(d.quoteLiteral("x'; DROP TABLE t; --")).toMatch(/^'x''; DROP TABLE t; --'$/);
  });

  test('a hostile name quoted for SQLite round-trips as one identifier on the real engine', () => {
    const db = new Database(':memory:');
    const name = 'x"; DROP TABLE keep; --';
    db.exec('CREATE TABLE keep (id INTEGER)');
    db.exec(`CREATE TABLE ${SQL_DIALECTS.sqlite.quoteIdentifier(name)} (id INTEGER)`);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    ).map((r) => r.name);
    db.close();
    expect(tables).toEqual(['keep', name]);
  });
});

describe('property: any dedupTable is either rejected or emitted only in quoted form', () => {
  test('arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 80 }), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,70}$/)),
        (name) => {
          const out = emitSql(buildShopPlan(), resolveConfig({ sql: { dedupTable: name }, dialects: ['sqlite'] }));
          const accepted = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && name.length <= 63;
          expect(out.files.length > 0).toBe(accepted);
          if (!accepted) return;
          const up = out.files.find((f) => f.path.endsWith('0001_idemgen_dedup.up.sql'))!.contents;
          const db = new Database(':memory:');
          db.exec(up);
          db.exec(up);
          const found = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
          db.close();
          expect(found).toEqual([{ name }]);
        },
      ),
      { numRuns: 200, seed: 6 },
    );
  });
});

describe('derived index names', () => {
  test('stay within the limit, stay distinct, and are stable', () => {
    const base = 'a'.repeat(63);
    const names = ['_reconcile_idx', '_prune_idx', '_idempotency_key_uidx'].map((s) => deriveName(base, s, 63));
    expect(new Set(names).size).toBe(3);
    for (const n of names) expect(n.length).toBeLessThanOrEqual(63);
    expect(deriveName(base, '_prune_idx', 63)).toBe(names[1]);
    expect(deriveName('orders', '_prune_idx', 63)).toBe('orders_prune_idx');
    expect(deriveName(`${'b'.repeat(60)}1`, '_prune_idx', 63)).not.toBe(
      deriveName(`${'b'.repeat(60)}2`, '_prune_idx', 63),
    );
  });
});
