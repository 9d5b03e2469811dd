/**
 * A missing dedup table: the runtime names the table and the fix instead of a raw driver error, and
 * `idemgen migrate --store …` creates it with the generated DDL (SQLite file, real PostgreSQL server).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createIdempotency, IdempotencyStoreSchemaError } from '../../packages/runtime/src/index.js';
import { createPostgresStore } from '../../packages/runtime/src/store/postgres.js';
import { createMysqlStore } from '../../packages/runtime/src/store/mysql.js';
import { createSqliteStore } from '../../packages/runtime/src/store/sqlite.js';
import { runCli } from '../helpers/cli.js';

const req = {
  operation: 'POST /v1/sms',
  key: 'migrate-test-key-000001',
  args: { to: '+1555' },
  mechanism: 'fail-closed' as const,
};

describe('a store whose table was never created', () => {
  it('SQLite: IdempotencyStoreSchemaError names the table, the migration file and idemgen migrate; then migrate fixes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-migrate-'));
    const file = join(dir, 'idem.db');
    const store = createSqliteStore({ filename: file });
    const err = await createIdempotency({ store })
      .run(req, async () => 'sent')
      .catch((e: unknown) => e);
    await store.close();
    expect(err).toBeInstanceOf(IdempotencyStoreSchemaError);
    expect(err).toMatchObject({ code: 'idempotency_store_schema_missing', table: 'idemgen_dedup' });
    expect((err as Error).message).toMatch(
      /table idemgen_dedup does not exist: apply the generated migration generated\/sql\/sqlite\/0001_idemgen_dedup\.up\.sql.*idemgen migrate --store/,
    );

    const dry = await runCli(['migrate', '--store', 'sqlite:./idem.db', '--dry-run'], dir);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/CREATE TABLE IF NOT EXISTS "idemgen_dedup"/);
    expect(dry.stdout).toMatch(/CREATE TABLE IF NOT EXISTS "idemgen_saga"/);
    for (let i = 0; i < 2; i++) expect((await runCli(['migrate', '--store', 'sqlite:./idem.db'], dir)).code).toBe(0); // twice: IF NOT EXISTS

    const migrated = createSqliteStore({ filename: file });
    const idem = createIdempotency({ store: migrated });
    expect(await idem.run(req, async () => 'sent')).toMatchObject({ result: 'sent', wasReplay: false });
    expect(await idem.run(req, async () => 'again')).toMatchObject({ result: 'sent', wasReplay: true });
    await migrated.close();
  });

  it('PostgreSQL: the same error, and migrate creates the tables in a fresh schema given by ?schema=', async () => {
    const url = inject('pgUrl');
    const schema = `mig_${process.pid}_${Date.now() % 100000}`;
    const store = createPostgresStore({ connectionString: url, schema });
    const err = await createIdempotency({ store })
      .run(req, async () => 'sent')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyStoreSchemaError);
    expect((err as Error).message).toMatch(
      /PostgreSQL table .*idemgen_dedup.* does not exist: apply the generated migration generated\/sql\/postgres\/0001_idemgen_dedup\.up\.sql/,
    );
    await store.close();

    const run = await runCli(
      ['migrate', '--store', `${url}?schema=${schema}`],
      mkdtempSync(join(tmpdir(), 'idemgen-migrate-pg-')),
    );
    expect(run.code).toBe(0);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
      [schema],
    );
    await client.end();
    expect(rows.map((r) => r.table_name)).toEqual(['idemgen_dedup', 'idemgen_saga']);
    const migrated = createPostgresStore({ connectionString: url, schema });
    expect(await createIdempotency({ store: migrated }).run(req, async () => 'sent')).toMatchObject({
      wasReplay: false,
    });
    await migrated.close();
  });

  it('MySQL/MariaDB: the same error, and migrate creates the tables in the database given by ?database=', async () => {
    const url = inject('mysqlUrl');
    const database = `mig_${process.pid}_${Date.now() % 100000}`;
    const admin = await mysql.createConnection(url);
    await admin.query(`CREATE DATABASE \`${database}\``);
    const store = createMysqlStore({ uri: url, database });
    const err = await createIdempotency({ store })
      .run(req, async () => 'sent')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyStoreSchemaError);
    expect((err as Error).message).toMatch(
      /MySQL\/MariaDB table .*idemgen_dedup.* does not exist: apply the generated migration generated\/sql\/mysql\/0001_idemgen_dedup\.up\.sql/,
    );
    await store.close();

    const run = await runCli(
      ['migrate', '--store', `${url.replace(/^mysql:/, 'mariadb:')}?database=${database}`],
      mkdtempSync(join(tmpdir(), 'idemgen-migrate-my-')),
    );
    expect(run.code).toBe(0);
    const [rows] = await admin.query(
      'SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY 1',
      [database],
    );
    expect((rows as { t: string }[]).map((r) => r.t)).toEqual(['idemgen_dedup', 'idemgen_saga']);
    const migrated = createMysqlStore({ uri: url, database });
    expect(await createIdempotency({ store: migrated }).run(req, async () => 'sent')).toMatchObject({
      wasReplay: false,
    });
    await migrated.close();
    await admin.query(`DROP DATABASE \`${database}\``);
    await admin.end();
  });

  it('an unsupported URL is a diagnostic (exit 2), not a stack trace', async () => {
    const run = await runCli(['migrate', '--store', 'mongodb://x'], tmpdir());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/invalid_store_url/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
