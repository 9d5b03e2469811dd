/**
 * One table-driven suite for every store: memory, SQLite (a real file), PostgreSQL, MySQL/MariaDB and Redis (real
 * servers), on tables made by the generated migration. Same state machine everywhere (DESIGN §5).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createMemoryStore,
  openStore,
  type ClaimInput,
  type FullDedupStore,
} from '../../../packages/runtime/src/index.js';
import { hasCapability, requireCapability } from '../../../packages/runtime/src/support.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { createPostgresStore } from '../../../packages/runtime/src/store/postgres.js';
import { makeStore, STORE_KINDS, type TestStore } from './stores.js';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

function claimInput(key: string, over: Partial<ClaimInput> = {}): ClaimInput {
  return {
    scope: 'tenant-1',
    key,
    operation: 'POST /v1/charges',
    argsHash: HASH_A,
    mechanism: 'fail-closed',
    leaseToken: `tok-${key}`,
    now: 1_000_000,
    leaseMs: 1_000,
    ttlMs: 60_000,
    ...over,
  };
}

describe.each(STORE_KINDS)('FullDedupStore on %s', (kind) => {
  let t: TestStore;
  let store: FullDedupStore;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'suite', { clock: 'caller' }); // the tests drive time through `now`
    store = t.store;
  });
  afterAll(() => t.cleanup());

  it('claims once; a second claim returns the existing row untouched', async () => {
    const first = await store.claim(claimInput('k-claim-0000001'));
    expect(first.claimed).toBe(true);
    expect(first.row).toMatchObject({
      status: 'pending',
      attempts: 1,
      leaseExpiresAt: 1_001_000,
      expiresAt: 1_060_000,
      mechanism: 'fail-closed',
    });
    const second = await store.claim(claimInput('k-claim-0000001', { leaseToken: 'other', argsHash: HASH_B }));
    expect(second).toMatchObject({ claimed: false, row: { leaseToken: 'tok-k-claim-0000001', argsHash: HASH_A } });
  });

  it('keeps scopes apart: the same key in another tenant is a different row', async () => {
    await store.claim(claimInput('k-scope-0000001'));
    const other = await store.claim(claimInput('k-scope-0000001', { scope: 'tenant-2' }));
    expect(other.claimed).toBe(true);
  });

  it('50 concurrent claims of one key: exactly one wins (unique constraint, no check-then-insert)', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.claim(claimInput('k-race-00000001', { leaseToken: `t${i}` }))),
    );
    expect(results.filter((r) => r.claimed)).toHaveLength(1);
    const winner = results.find((r) => r.claimed)!.row.leaseToken;
    expect(results.every((r) => r.row.leaseToken === winner)).toBe(true);
  });

  it('complete is fenced by the lease token', async () => {
    await store.claim(claimInput('k-fence-0000001'));
    const base = { scope: 'tenant-1', key: 'k-fence-0000001', now: 1_000_500, result: '{"id":"ch_1"}' };
    expect(await store.complete({ ...base, leaseToken: 'wrong' })).toBe(false);
    expect(await store.complete({ ...base, leaseToken: 'tok-k-fence-0000001', externalId: 'ch_1' })).toBe(true);
    expect(await store.get(base)).toMatchObject({
      status: 'completed',
      result: '{"id":"ch_1"}',
      externalId: 'ch_1',
      completedAt: 1_000_500,
    });
    expect(await store.complete({ ...base, leaseToken: 'tok-k-fence-0000001' })).toBe(false); // not pending any more
  });

  it('release deletes only the holder’s pending row', async () => {
    await store.claim(claimInput('k-release-000001'));
    const id = { scope: 'tenant-1', key: 'k-release-000001', now: 1_000_100 };
    expect(await store.release({ ...id, leaseToken: 'nope' })).toBe(false);
    expect(await store.release({ ...id, leaseToken: 'tok-k-release-000001' })).toBe(true);
    expect(await store.get(id)).toBeUndefined();
    expect((await store.claim(claimInput('k-release-000001', { leaseToken: 'again' }))).claimed).toBe(true);
  });

  it('markUnknown keeps the row pending and makes it stale at once; listStale finds it', async () => {
    await store.claim(claimInput('k-unknown-00001', { now: 2_000_000 }));
    const id = { scope: 'tenant-1', key: 'k-unknown-00001' };
    expect(
      await store.markUnknown({
        ...id,
        leaseToken: 'tok-k-unknown-00001',
        now: 2_000_010,
        error: '{"outcome":"unknown"}',
      }),
    ).toBe(true);
    const stale = await store.listStale(2_000_010);
    expect(stale.map((r) => r.key)).toContain('k-unknown-00001');
    expect(stale.find((r) => r.key === 'k-unknown-00001')).toMatchObject({
      status: 'pending',
      error: '{"outcome":"unknown"}',
    });
    expect((await store.listStale(1_999_000)).map((r) => r.key)).not.toContain('k-unknown-00001');
  });

  it('takeOver: only an expired lease, only with the expected token, only one winner', async () => {
    await store.claim(claimInput('k-take-00000001', { now: 3_000_000 }));
    const base = { scope: 'tenant-1', key: 'k-take-00000001', expectedToken: 'tok-k-take-00000001', leaseMs: 1_000 };
    expect(await store.takeOver({ ...base, newToken: 'early', now: 3_000_500 })).toBeUndefined();
    const racers = await Promise.all(
      ['n1', 'n2', 'n3'].map((n) => store.takeOver({ ...base, newToken: n, now: 3_002_000 })),
    );
    const won = racers.filter((r) => r !== undefined);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ attempts: 2, leaseExpiresAt: 3_003_000 });
    const old = {
      scope: 'tenant-1',
      key: 'k-take-00000001',
      leaseToken: 'tok-k-take-00000001',
      now: 3_002_100,
      result: '1',
    };
    expect(await store.complete(old)).toBe(false); // the late finisher is fenced out
  });

  it('fail stores a definite failure', async () => {
    await store.claim(claimInput('k-fail-00000001'));
    const id = { scope: 'tenant-1', key: 'k-fail-00000001' };
    expect(
      await store.fail({ ...id, leaseToken: 'tok-k-fail-00000001', now: 1_000_200, error: '{"status":402}' }),
    ).toBe(true);
    expect(await store.get(id)).toMatchObject({ status: 'failed', error: '{"status":402}' });
  });

  it('expired completed rows are reclaimable and pruned; unresolved pending rows are kept', async () => {
    await store.claim(claimInput('k-ttl-000000001', { now: 10_000_000, ttlMs: 1_000 }));
    await store.complete({
      scope: 'tenant-1',
      key: 'k-ttl-000000001',
      leaseToken: 'tok-k-ttl-000000001',
      now: 10_000_001,
      result: '1',
    });
    await store.claim(claimInput('k-ttl-pending01', { now: 10_000_000, ttlMs: 1_000 }));
    const again = await store.claim(claimInput('k-ttl-000000001', { now: 10_002_000, leaseToken: 'fresh' }));
    expect(again).toMatchObject({ claimed: true, row: { leaseToken: 'fresh', status: 'pending' } });
    await store.complete({
      scope: 'tenant-1',
      key: 'k-ttl-000000001',
      leaseToken: 'fresh',
      now: 10_002_001,
      result: '2',
    });
    const pruned = await store.prune(10_000_000 + 60_000_000);
    // This test's completed row plus the two terminal rows earlier tests left (k-fence completed, k-fail failed).
    expect(pruned).toBe(3);
    expect(await store.get({ scope: 'tenant-1', key: 'k-fence-0000001' })).toBeUndefined();
    expect(await store.get({ scope: 'tenant-1', key: 'k-fail-00000001' })).toBeUndefined();
    expect(await store.get({ scope: 'tenant-1', key: 'k-ttl-000000001' })).toBeUndefined();
    expect(await store.get({ scope: 'tenant-1', key: 'k-ttl-pending01' })).toMatchObject({ status: 'pending' });
  });

  it('keeps the argument summary given at claim time', async () => {
    await store.claim(claimInput('k-summary-00001', { argsSummary: '{"to":"string(5)"}' }));
    expect(await store.get({ scope: 'tenant-1', key: 'k-summary-00001' })).toMatchObject({
      argsSummary: '{"to":"string(5)"}',
      resolution: null,
    });
  });

  it('resolve: only a pending row nobody holds; completed keeps the result, failed frees the key, the record survives the re-claim', async () => {
    const id = { scope: 'tenant-1', key: 'k-resolve-00001' };
    await store.claim(claimInput(id.key, { now: 20_000_000 }));
    const base = { ...id, error: '{"outcome":"failed"}', resolution: '{"by":"ops"}' };
    expect(await store.resolve({ ...base, as: 'failed', now: 20_000_500 })).toBeUndefined(); // lease still live
    const failed = await store.resolve({ ...base, as: 'failed', now: 20_002_000 });
    expect(failed).toMatchObject({ status: 'failed', leaseToken: null, resolution: '{"by":"ops"}' });
    // Expired at once: the resolution's time, or (Redis) a window of 0 from the claim, which a claim on its
    // extrapolated server clock also sees as past.
    expect(failed!.expiresAt).toBeLessThanOrEqual(20_002_000);
    expect(await store.complete({ ...id, leaseToken: 'tok-k-resolve-00001', now: 20_002_001, result: '1' })).toBe(
      false,
    ); // zombie fenced
    expect((await store.listStale(20_003_000)).map((r) => r.key)).not.toContain(id.key);
    const again = await store.claim(claimInput(id.key, { now: 20_003_000, leaseToken: 'retry', argsSummary: '{}' }));
    expect(again).toMatchObject({
      claimed: true,
      row: { status: 'pending', leaseToken: 'retry', resolution: '{"by":"ops"}', attempts: 1 },
    });
    expect(await store.get(id)).toMatchObject({ resolution: '{"by":"ops"}', argsSummary: '{}' });

    const done = { scope: 'tenant-1', key: 'k-resolve-00002' };
    await store.claim(claimInput(done.key, { now: 20_000_000 }));
    const completed = await store.resolve({
      ...done,
      as: 'completed',
      result: '{"id":"ch_7"}',
      error: '',
      resolution: '{"by":"ops"}',
      now: 20_002_000,
    });
    expect(completed).toMatchObject({
      status: 'completed',
      result: '{"id":"ch_7"}',
      error: null,
      completedAt: 20_002_000,
      expiresAt: 20_062_000, // the full 60 s window from the resolution
    });
    expect(
      await store.resolve({ ...done, as: 'failed', error: '', resolution: '{}', now: 20_003_000 }),
    ).toBeUndefined(); // not pending
  });

  it('saga table: claim, fenced transitions, stale listing', async () => {
    const saga = store.saga(t.location.sagaTable);
    const input = {
      scope: '',
      key: 'saga-key-000001',
      operation: 'POST /charges',
      argsHash: HASH_A,
      compensationOperation: 'POST /refunds',
      leaseToken: 's1',
      now: 5_000_000,
      leaseMs: 1_000,
      ttlMs: 60_000,
    };
    expect((await saga.claim(input)).claimed).toBe(true);
    expect((await saga.claim({ ...input, leaseToken: 's2' })).claimed).toBe(false);
    const id = { scope: '', key: 'saga-key-000001', now: 5_000_100 };
    expect(await saga.transition({ ...id, leaseToken: 's2', from: ['pending'], to: 'completed' })).toBe(false);
    expect(
      await saga.transition({
        ...id,
        leaseToken: 's1',
        from: ['pending'],
        to: 'completed',
        externalId: 'ch_9',
        result: '{"a":1}',
      }),
    ).toBe(true);
    expect(await saga.get(id)).toMatchObject({
      status: 'completed',
      externalId: 'ch_9',
      compensationOperation: 'POST /refunds',
      updatedAt: 5_000_100,
    });
    await saga.claim({ ...input, key: 'saga-key-000002' });
    expect((await saga.listStale(5_002_000)).map((r) => r.key)).toEqual(['saga-key-000002']);
  });
});

describe('store construction', () => {
  it('rejects table names that are not plain identifiers', () => {
    expect(() => createSqliteStore({ filename: ':memory:', table: 'x; DROP TABLE y' })).toThrow(/invalid table/);
    expect(() =>
      createPostgresStore({ connectionString: 'postgres://127.0.0.1:1/x', table: 'ok', schema: 'a"b' }),
    ).toThrow(/invalid schema/);
  });

  it('openStore loads the driver its URL names; each store works on its own table and names the dialect of a missing one', async () => {
    const claim = (key: string) => claimInput(key);
    const s = await openStore('sqlite::memory:?table=some_table');
    await expect(s.claim(claim('k-open-sqlite-01'))).rejects.toThrow(/^the SQLite table "?some_table"? does not exist/);
    await s.close();
    const p = await openStore(`${inject('pgUrl')}?table=t_x&schema=s_x`);
    await expect(p.claim(claim('k-open-pg-000001'))).rejects.toThrow(/^the PostgreSQL table .*t_x.* does not exist/);
    await p.close();
    for (const scheme of ['mysql:', 'mariadb:']) {
      const m = await openStore(`${inject('mysqlUrl').replace(/^mysql:/, scheme)}?table=t_x`);
      await expect(m.claim(claim('k-open-my-000001'))).rejects.toThrow(
        /^the MySQL\/MariaDB table .*t_x.* does not exist/,
      );
      await m.close();
    }
    const r = await openStore(`${inject('redisUrl')}?table=t_x&prefix=p_x_${process.pid}`);
    expect((await r.claim(claim('k-open-redis-001'))).claimed).toBe(true);
    await r.close();
    await expect(openStore('mongodb://localhost')).rejects.toThrow(/unsupported store URL/);
  });

  it('hasCapability / requireCapability: a custom store with only the nine core methods is enough for a run, not for reconcile', async () => {
    const full = createMemoryStore();
    const { listStale: _l, resolve: _r, prune: _p, saga: _s, listCorrupt: _c, repairCorrupt: _rc, ...core } = full;
    const kinds = ['saga', 'reconcile', 'prune', 'repair'] as const;
    expect(kinds.map((k) => hasCapability(full, k))).toEqual([true, true, true, true]);
    expect(kinds.map((k) => hasCapability(core, k))).toEqual([false, false, false, false]);
    expect(Object.keys(core).sort()).toEqual([
      'claim',
      'close',
      'complete',
      'fail',
      'get',
      'markUnknown',
      'release',
      'renewLease',
      'takeOver',
    ]);
    expect(() => requireCapability(core, 'reconcile', 'reconcileReport')).toThrow(
      /reconcileReport needs a store with listStale\(\) and resolve\(\)/,
    );
  });
});
