import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { renderClaimStatement } from '../../../src/emit/sql/index.js';
import { claimParams, DEDUP_COLUMNS, emittedMigrations, SAGA_COLUMNS } from './engine-helpers.js';

// A fresh database per file; sql.schema qualifies the store tables with it (MySQL schemaMode 'qualify').
const database = `idemgen_sql_my_${process.pid}`;
const config = resolveConfig({ sql: { schema: database } });
let url = '';
let db: mysql.Connection;

beforeAll(async () => {
  const admin = await mysql.createConnection(inject('mysqlUrl'));
  await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await admin.query(`CREATE DATABASE \`${database}\``);
  await admin.end();
  const u = new URL(inject('mysqlUrl'));
  u.pathname = `/${database}`;
  url = u.toString();
  db = await mysql.createConnection({ uri: url, multipleStatements: true });
  await db.query('CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, amount INT NOT NULL) ENGINE=InnoDB');
});

afterAll(async () => {
  await db?.end();
});

async function columns(table: string): Promise<string[]> {
  const [rows] = await db.query(
    'SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY COLUMN_NAME',
    [database, table],
  );
  return (rows as { c: string }[]).map((r) => r.c);
}

async function indexes(table: string): Promise<string[]> {
  const [rows] = await db.query(
    'SELECT DISTINCT INDEX_NAME AS i FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY INDEX_NAME',
    [database, table],
  );
  return (rows as { i: string }[]).map((r) => r.i);
}

describe('MariaDB: emitted migrations', () => {
  const migrations = emittedMigrations('mysql', config);

  test('up → down → up for every migration in order; store migrations run twice', async () => {
    const order = [...migrations.keys()];
    expect(order).toEqual(['0001_idemgen_dedup', '0002_idemgen_saga', '0003_owned_orders']);
    for (const name of order) await db.query(migrations.get(name)!.up);
    expect(await columns('idemgen_dedup')).toEqual(DEDUP_COLUMNS);
    expect(await columns('idemgen_saga')).toEqual(SAGA_COLUMNS);
    expect(await columns('orders')).toEqual(['amount', 'id', 'idempotency_key']);
    for (const name of [...order].reverse()) await db.query(migrations.get(name)!.down);
    expect(await columns('idemgen_dedup')).toEqual([]);
    expect(await columns('orders')).toEqual(['amount', 'id']);
    for (const name of order) await db.query(migrations.get(name)!.up);
    await db.query(migrations.get('0001_idemgen_dedup')!.up);
    await db.query(migrations.get('0002_idemgen_saga')!.up);
    expect(await indexes('idemgen_dedup')).toEqual([
      'idemgen_dedup_prune_idx',
      'idemgen_dedup_reconcile_idx',
      'PRIMARY',
    ]);
    expect(await indexes('orders')).toEqual(['orders_idempotency_key_uidx', 'PRIMARY']);
  });

  test('key columns compare exactly (utf8mb4_bin): keys differing in case or accent are distinct', async () => {
    const insert =
      'INSERT INTO idemgen_dedup (scope, idempotency_key, operation, args_hash, mechanism, status, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, 1, 2)';
    for (const key of ['Key-A', 'key-a', 'kéy-a'])
      await db.query(insert, ['s', key, 'op', 'h', 'dedup-table', 'pending']);
    const [rows] = await db.query("SELECT COUNT(*) AS n FROM idemgen_dedup WHERE scope = 's'");
    expect((rows as { n: number }[])[0].n).toBe(3);
  });

  test('the status CHECK and the (scope, key) primary key hold', async () => {
    const insert =
      'INSERT INTO idemgen_dedup (scope, idempotency_key, operation, args_hash, mechanism, status, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, 1, 2)';
    await expect(db.query(insert, ['t', 'k-check', 'op', 'h', 'dedup-table', 'running'])).rejects.toThrow(
      /CONSTRAINT .* failed/,
    );
    await db.query(insert, ['t', 'k-pk', 'op', 'h', 'dedup-table', 'pending']);
    await expect(db.query(insert, ['t', 'k-pk', 'op', 'h', 'dedup-table', 'completed'])).rejects.toMatchObject({
      code: 'ER_DUP_ENTRY',
    });
  });

  test('the OP-4 insert shape dedupes on the owned table: 1 affected row, then 0, same row read back', async () => {
    expect(migrations.get('0003_owned_orders')!.up).toContain('INSERT IGNORE INTO `orders`');
    const insert = 'INSERT IGNORE INTO `orders` (`amount`, `idempotency_key`) VALUES (?, ?)';
    const [first] = await db.query(insert, [10, 'order-key-1']);
    const [second] = await db.query(insert, [99, 'order-key-1']);
    expect((first as mysql.ResultSetHeader).affectedRows).toBe(1);
    expect((second as mysql.ResultSetHeader).affectedRows).toBe(0);
    const [rows] = await db.query('SELECT amount FROM `orders` WHERE `idempotency_key` = ?', ['order-key-1']);
    expect(rows).toEqual([{ amount: 10 }]);
  });
});

describe('MariaDB: the claim under concurrency', () => {
  test('50 connections claim one key at once: exactly one INSERT succeeds, 49 get ER_DUP_ENTRY, and the row is the winner’s', async () => {
    const claim = renderClaimStatement('mysql', config.sql);
    expect(claim).toMatch(/^INSERT INTO `idemgen_sql_my_\d+`\.`idemgen_dedup` \(/);
    const conns = await Promise.all(Array.from({ length: 50 }, () => mysql.createConnection(url)));
    try {
      const results = await Promise.allSettled(
        conns.map((c, i) => c.query(claim, claimParams('race-key', `lease-${i}`, 'server'))),
      );
      const winners = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      expect(winners).toHaveLength(1);
      const codes = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []));
      expect(codes).toEqual(Array.from({ length: 49 }, () => 'ER_DUP_ENTRY'));
      const [rows] = await db.query("SELECT lease_token, status FROM idemgen_dedup WHERE idempotency_key = 'race-key'");
      expect(rows).toEqual([{ lease_token: `lease-${winners[0]}`, status: 'pending' }]);
    } finally {
      await Promise.all(conns.map((c) => c.end()));
    }
  });
});
