/**
 * Test stores on tables created by the generated migration (`renderStoreMigration`), never by
 * hand: the runtime must work on exactly the schema users apply.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { resolveConfig } from '../../../src/config/types.js';
import { renderStoreMigration } from '../../../src/emit/sql/index.js';
import { inject } from 'vitest';
import { createMemoryStore, type FullDedupStore } from '../../../packages/runtime/src/index.js';
import { createPostgresStore } from '../../../packages/runtime/src/store/postgres.js';
import { createRedisStore } from '../../../packages/runtime/src/store/redis/store.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { createMysqlStore } from '../../../packages/runtime/src/store/mysql.js';

export type StoreKind = 'memory' | 'sqlite' | 'postgres' | 'mysql' | 'redis';
export const STORE_KINDS: StoreKind[] = ['memory', 'sqlite', 'postgres', 'mysql', 'redis'];

export interface TestStore {
  store: FullDedupStore;
  /** For opening a second connection (another process) on the same table. */
  location: {
    filename?: string;
    connectionString?: string;
    schema?: string;
    url?: string;
    prefix?: string;
    table: string;
    sagaTable: string;
    /** MySQL/MariaDB: the database the tables live in. */
    database?: string;
  };
  cleanup(): Promise<void>;
}

let counter = 0;

export function sqlConfigFor(name: string, schema?: string) {
  return { ...resolveConfig().sql, schema, dedupTable: `${name}_dedup`, sagaTable: `${name}_saga` };
}

export async function migratePostgres(url: string, schema: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(renderStoreMigration('postgres', sqlConfigFor(name, schema), { saga: true }).up);
  } finally {
    await client.end();
  }
}

/**
 * `clock: 'caller'` for tests that drive time through the `now` they pass (a simulated clock); by
 * default PostgreSQL, MySQL/MariaDB and Redis judge leases and expiry by their own clock.
 */
export interface StoreOptions {
  clock?: 'store' | 'caller';
}

export async function makeStore(
  kind: StoreKind,
  pgUrl: string,
  prefix: string,
  opts: StoreOptions = {},
): Promise<TestStore> {
  const name = `${prefix}_${process.pid}_${++counter}`;
  const sql = sqlConfigFor(name);
  if (kind === 'memory') {
    const store = createMemoryStore();
    return { store, location: { table: sql.dedupTable, sagaTable: sql.sagaTable }, cleanup: () => store.close() };
  }
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-rt-'));
    const filename = join(dir, 'dedup.db');
    const db = new Database(filename);
    db.exec(renderStoreMigration('sqlite', sql, { saga: true }).up);
    db.close();
    const store = createSqliteStore({ filename, table: sql.dedupTable });
    return {
      store,
      location: { filename, table: sql.dedupTable, sagaTable: sql.sagaTable },
      cleanup: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (kind === 'redis') return makeRedisStore(name, sql.dedupTable, sql.sagaTable, opts);
  if (kind === 'mysql') return makeMysqlStore(name, opts);
  const schema = `rt_${name}`;
  await migratePostgres(pgUrl, schema, name);
  const store = createPostgresStore({ connectionString: pgUrl, table: sql.dedupTable, schema, clock: opts.clock });
  return {
    store,
    location: { connectionString: pgUrl, schema, table: sql.dedupTable, sagaTable: sql.sagaTable },
    cleanup: async () => {
      await store.close();
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`DROP SCHEMA "${schema}" CASCADE`);
      await client.end();
    },
  };
}

/** Redis has no migration: a fresh key prefix per store isolates it; cleanup deletes its keys. */
async function makeRedisStore(name: string, table: string, sagaTable: string, opts: StoreOptions): Promise<TestStore> {
  const url = inject('redisUrl');
  const prefix = `t_${name}`;
  const store = createRedisStore({ url, prefix, table, clock: opts.clock });
  return {
    store,
    location: { url, prefix, table, sagaTable },
    cleanup: async () => {
      await store.close();
      const { createClient } = await import('redis');
      const client = createClient({ url });
      await client.connect();
      for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 }))
        if (keys.length) await client.del(keys);
      await client.close();
    },
  };
}

/** MySQL/MariaDB: a fresh database per store (MySQL's schemas are databases), tables from the generated migration. */
async function makeMysqlStore(name: string, opts: StoreOptions): Promise<TestStore> {
  const url = inject('mysqlUrl');
  const database = `rt_${name}`;
  const admin = await mysql.createConnection({ uri: url, multipleStatements: true });
  await admin.query(`CREATE DATABASE \`${database}\``);
  await admin.query(renderStoreMigration('mysql', sqlConfigFor(name, database), { saga: true }).up);
  await admin.end();
  const table = sqlConfigFor(name).dedupTable;
  const store = createMysqlStore({ uri: url, database, table, clock: opts.clock });
  return {
    store,
    location: { url, database, table, sagaTable: sqlConfigFor(name).sagaTable },
    cleanup: async () => {
      await store.close();
      const conn = await mysql.createConnection(url);
      await conn.query(`DROP DATABASE \`${database}\``);
      await conn.end();
    },
  };
}
