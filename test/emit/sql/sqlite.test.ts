import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { renderClaimStatement } from '../../../src/emit/sql/index.js';
import { claimParams, DEDUP_COLUMNS, emittedMigrations, SAGA_COLUMNS } from './engine-helpers.js';

const config = resolveConfig({ sql: { schema: 'ignored_for_sqlite' } });
const dir = mkdtempSync(join(tmpdir(), 'idemgen-sql-sqlite-'));
const file = join(dir, 'store.db');
let db: Database.Database;

beforeAll(() => {
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)');
});

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const columns = (table: string): string[] =>
  (db.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name).sort();
const indexes = (table: string): string[] =>
  (db.pragma(`index_list("${table}")`) as { name: string }[]).map((i) => i.name).sort();

describe('SQLite: emitted migrations on a real file', () => {
  const migrations = emittedMigrations('sqlite', config);

  test('up → down → up for every migration in order; store migrations run twice', () => {
    const order = [...migrations.keys()];
    expect(order).toEqual(['0001_idemgen_dedup', '0002_idemgen_saga', '0003_owned_orders']);
    for (const name of order) db.exec(migrations.get(name)!.up);
    expect(columns('idemgen_dedup')).toEqual(DEDUP_COLUMNS);
    expect(columns('idemgen_saga')).toEqual(SAGA_COLUMNS);
    expect(columns('orders')).toEqual(['amount', 'id', 'idempotency_key']);
    for (const name of [...order].reverse()) db.exec(migrations.get(name)!.down);
    expect(columns('idemgen_dedup')).toEqual([]);
    expect(columns('orders')).toEqual(['amount', 'id']);
    for (const name of order) db.exec(migrations.get(name)!.up);
    db.exec(migrations.get('0001_idemgen_dedup')!.up);
    db.exec(migrations.get('0002_idemgen_saga')!.up);
    expect(indexes('idemgen_dedup')).toEqual([
      'idemgen_dedup_prune_idx',
      'idemgen_dedup_reconcile_idx',
      'sqlite_autoindex_idemgen_dedup_1',
    ]);
    expect(indexes('orders')).toEqual(['orders_idempotency_key_uidx']);
  });

  test('the status CHECK and the (scope, key) primary key hold', () => {
    const insert = db.prepare(
      'INSERT INTO idemgen_dedup (scope, idempotency_key, operation, args_hash, mechanism, status, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, 1, 2)',
    );
    expect(() => insert.run('s', 'k-check', 'op', 'h', 'dedup-table', 'running')).toThrow(/CHECK constraint failed/);
    insert.run('s', 'k-pk', 'op', 'h', 'dedup-table', 'pending');
    expect(() => insert.run('s', 'k-pk', 'op', 'h', 'dedup-table', 'completed')).toThrow(/UNIQUE constraint failed/);
    insert.run('other-tenant', 'k-pk', 'op', 'h', 'dedup-table', 'pending');
  });

  test('the OP-4 insert shape dedupes on the owned table', () => {
    expect(migrations.get('0003_owned_orders')!.up).toContain('ON CONFLICT ("idempotency_key") DO NOTHING');
    const insert = db.prepare(
      'INSERT INTO "orders" ("amount", "idempotency_key") VALUES (?, ?) ON CONFLICT ("idempotency_key") DO NOTHING RETURNING *',
    );
    expect(insert.all(10, 'order-key-1')).toHaveLength(1);
    expect(insert.all(99, 'order-key-1')).toHaveLength(0);
  });
});

function runWorkers(count: number, sql: string): Promise<{ won?: boolean; error?: string }[]> {
  const barrier = new SharedArrayBuffer(8);
  const flags = new Int32Array(barrier);
  const url = new URL('./sqlite-claim-worker.mjs', import.meta.url);
  const results = Array.from({ length: count }, (_, i) => {
    const worker = new Worker(url, {
      workerData: { file, sql, params: claimParams('race-key', `lease-${i}`), barrier },
    });
    return new Promise<{ won?: boolean; error?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    }).finally(() => worker.terminate());
  });
  // Release every thread at once, after all have opened their connection.
  const release = (): void => {
    if (Atomics.load(flags, 1) < count) {
      setTimeout(release, 10);
      return;
    }
    Atomics.store(flags, 0, 1);
    Atomics.notify(flags, 0);
  };
  release();
  return Promise.all(results);
}

describe('SQLite: the claim under concurrency', () => {
  test('50 connections in 50 threads claim one key on one file: exactly one wins', async () => {
    const claim = renderClaimStatement('sqlite', config.sql);
    const results = await runWorkers(50, claim);
    expect(results.filter((r) => r.error)).toEqual([]);
    const winners = results.flatMap((r, i) => (r.won ? [i] : []));
    expect(winners).toHaveLength(1);
    const rows = db.prepare("SELECT lease_token, status FROM idemgen_dedup WHERE idempotency_key = 'race-key'").all();
    expect(rows).toEqual([{ lease_token: `lease-${winners[0]}`, status: 'pending' }]);
  });
});
