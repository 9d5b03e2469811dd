import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { renderClaimStatement, renderStoreMigration } from '../../../src/emit/sql/index.js';
import { claimParams, DEDUP_COLUMNS, emittedMigrations, LONGEST_TABLE, SAGA_COLUMNS } from './engine-helpers.js';

// A fresh database per file so parallel test files never collide.
const database = `idemgen_sql_pg_${process.pid}`;
const config = resolveConfig({ sql: { schema: 'idem' } });
let url = '';
let db: pg.Client;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: inject('pgUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database}`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const u = new URL(inject('pgUrl'));
  u.pathname = `/${database}`;
  url = u.toString();
  db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query('CREATE TABLE orders (id serial PRIMARY KEY, amount integer NOT NULL)');
});

afterAll(async () => {
  await db?.end();
});

async function columns(schema: string, table: string): Promise<string[]> {
  const { rows } = await db.query(
    'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY column_name',
    [schema, table],
  );
  return rows.map((r: { column_name: string }) => r.column_name);
}

async function indexes(schema: string, table: string): Promise<string[]> {
  const { rows } = await db.query(
    'SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 ORDER BY 1',
    [schema, table],
  );
  return rows.map((r: { indexname: string }) => r.indexname);
}

describe('PostgreSQL: emitted migrations', () => {
  const migrations = emittedMigrations('postgres', config);

  test('up → down → up, and up twice, for every migration in order', async () => {
    const order = [...migrations.keys()];
    expect(order).toEqual(['0001_idemgen_dedup', '0002_idemgen_saga', '0003_owned_orders']);
    for (const name of order) await db.query(migrations.get(name)!.up);
    expect(await columns('idem', 'idemgen_dedup')).toEqual(DEDUP_COLUMNS);
    expect(await columns('idem', 'idemgen_saga')).toEqual(SAGA_COLUMNS);
    expect(await columns('public', 'orders')).toEqual(['amount', 'id', 'idempotency_key']);
    for (const name of [...order].reverse()) await db.query(migrations.get(name)!.down);
    expect(await columns('idem', 'idemgen_dedup')).toEqual([]);
    expect(await columns('idem', 'idemgen_saga')).toEqual([]);
    expect(await columns('public', 'orders')).toEqual(['amount', 'id']);
    for (const name of [...order, ...order]) await db.query(migrations.get(name)!.up);
    expect(await indexes('idem', 'idemgen_dedup')).toEqual([
      'idemgen_dedup_pkey',
      'idemgen_dedup_prune_idx',
      'idemgen_dedup_reconcile_idx',
    ]);
    expect(await indexes('public', 'orders')).toEqual(['orders_idempotency_key_uidx', 'orders_pkey']);
  });

  test('the status CHECK and the (scope, key) primary key hold', async () => {
    const insert =
      'INSERT INTO idem.idemgen_dedup (scope, idempotency_key, operation, args_hash, mechanism, status, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, 1, 2)';
    await expect(db.query(insert, ['s', 'k-check', 'op', 'h', 'dedup-table', 'running'])).rejects.toMatchObject({
      code: '23514',
    });
    await db.query(insert, ['s', 'k-pk', 'op', 'h', 'dedup-table', 'pending']);
    await expect(db.query(insert, ['s', 'k-pk', 'op', 'h', 'dedup-table', 'completed'])).rejects.toMatchObject({
      code: '23505',
    });
    await db.query(insert, ['other-tenant', 'k-pk', 'op', 'h', 'dedup-table', 'pending']);
  });

  test('the OP-4 insert shape dedupes on the owned table: a row the first time, none the second', async () => {
    const sql =
      'INSERT INTO "orders" ("amount", "idempotency_key") VALUES ($1, $2) ON CONFLICT ("idempotency_key") DO NOTHING RETURNING *';
    expect(migrations.get('0003_owned_orders')!.up).toContain('ON CONFLICT ("idempotency_key") DO NOTHING');
    const first = await db.query(sql, [10, 'order-key-1']);
    const second = await db.query(sql, [99, 'order-key-1']);
    expect(first.rows).toHaveLength(1);
    expect(second.rows).toHaveLength(0);
  });
});

describe('PostgreSQL: the claim under concurrency', () => {
  test('50 connections claim one key at once: exactly one wins, and the row is the winner’s', async () => {
    const claim = renderClaimStatement('postgres', config.sql);
    const clients = Array.from({ length: 50 }, () => new pg.Client({ connectionString: url }));
    await Promise.all(clients.map((c) => c.connect()));
    try {
      const results = await Promise.all(
        clients.map((c, i) => c.query(claim, claimParams('race-key', `lease-${i}`, 'server'))),
      );
      const winners = results.flatMap((r, i) => (r.rows.length === 1 ? [i] : []));
      expect(winners).toHaveLength(1);
      const { rows } = await db.query(
        "SELECT lease_token, status, attempts FROM idem.idemgen_dedup WHERE idempotency_key = 'race-key'",
      );
      expect(rows).toEqual([{ lease_token: `lease-${winners[0]}`, status: 'pending', attempts: 1 }]);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});

describe('PostgreSQL: renderStoreMigration with the longest accepted table names', () => {
  test('63-character names apply, and their derived index names stay distinct within the limit', async () => {
    const sql = resolveConfig({ sql: { dedupTable: LONGEST_TABLE, sagaTable: `s${LONGEST_TABLE.slice(1)}` } }).sql;
    const store = renderStoreMigration('postgres', sql, { saga: true });
    await db.query(store.up);
    await db.query(store.up);
    const names = [...(await indexes('public', LONGEST_TABLE)), ...(await indexes('public', sql.sagaTable))];
    expect(new Set(names).size).toBe(6);
    for (const n of names) expect(n.length).toBeLessThanOrEqual(63);
    await db.query(store.down);
    expect(await columns('public', LONGEST_TABLE)).toEqual([]);
  });
});
