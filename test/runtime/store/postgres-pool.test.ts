/**
 * S6: a pool the PostgreSQL store creates must survive an idle connection being dropped (server
 * restart, proxy timeout): `pg` emits 'error' on the pool, which crashes the process without a listener.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DedupStore } from '../../../packages/runtime/src/index.js';
import { createPostgresStore } from '../../../packages/runtime/src/store/postgres.js';
import { migratePostgres, sqlConfigFor } from './stores.js';

const name = `pgpool_${process.pid}`;
const schema = `rt_${name}`;

async function terminate(url: string, appName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const r = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
      appName,
    ]);
    return r.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe('PostgreSQL store pool errors', () => {
  const url = inject('pgUrl');
  const stores: DedupStore[] = [];
  beforeAll(() => migratePostgres(url, schema, name));
  afterAll(async () => {
    for (const s of stores) await s.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.end();
  });

  it('an idle client killed by the server is reported to onPoolError, and the store keeps working', async () => {
    const seen: Error[] = [];
    const appName = `idemgen_s6_a_${process.pid}`;
    const store = createPostgresStore({
      connectionString: url,
      schema,
      table: sqlConfigFor(name).dedupTable,
      poolConfig: { application_name: appName },
      onPoolError: (err) => void seen.push(err),
    });
    stores.push(store);
    expect(await store.get({ scope: '', key: 'k-0000000000000001' })).toBeUndefined(); // leaves an idle client
    expect(await terminate(url, appName)).toBe(1);
    await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(1);
    expect(await store.get({ scope: '', key: 'k-0000000000000001' })).toBeUndefined();
  });

  it('without onPoolError the drop is ignored instead of crashing the process', async () => {
    const appName = `idemgen_s6_b_${process.pid}`;
    const store = createPostgresStore({
      connectionString: url,
      schema,
      table: sqlConfigFor(name).dedupTable,
      poolConfig: { application_name: appName },
    });
    stores.push(store);
    await store.get({ scope: '', key: 'k-0000000000000002' });
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => void uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      expect(await terminate(url, appName)).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(await store.get({ scope: '', key: 'k-0000000000000002' })).toBeUndefined();
  });
});
