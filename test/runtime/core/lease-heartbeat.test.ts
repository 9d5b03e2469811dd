/**
 * M1: a call that outlives its lease must not look abandoned. The owner renews its lease while the
 * call runs (fenced by its token), so a retry waits and replays instead of taking over and calling
 * again; a late saga completion that *was* fenced leaves its external id as an orphan to compensate.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createIdempotency,
  IdempotencyFencedError,
  reconcileSagas,
  runSaga,
  type FullDedupStore,
} from '../../../packages/runtime/src/index.js';
import { makeStore, STORE_KINDS, type TestStore } from '../store/stores.js';

const KEY = (n: string) => `beat-${n}-0123456789abcdef`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(STORE_KINDS)('lease heartbeat on %s', (kind) => {
  let t: TestStore;
  let store: FullDedupStore;
  let table: string;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'beat', { clock: 'caller' }); // some tests drive time through `now`
    store = t.store;
    table = t.location.sagaTable;
  });
  afterAll(() => t.cleanup());

  it('renewLease extends only the lease its token owns, and only while pending', async () => {
    const id = { scope: 's', key: KEY('renew') };
    await store.claim({
      ...id,
      operation: 'op',
      argsHash: 'a'.repeat(64),
      mechanism: 'native-key',
      leaseToken: 'tok-1',
      now: 1_000,
      leaseMs: 100,
      ttlMs: 60_000,
    });
    expect(await store.renewLease({ ...id, leaseToken: 'tok-1', now: 1_050, leaseMs: 100 })).toBe(true);
    expect((await store.get(id))?.leaseExpiresAt).toBe(1_150);
    expect(await store.renewLease({ ...id, leaseToken: 'intruder', now: 1_060, leaseMs: 10_000 })).toBe(false);
    await store.complete({ ...id, leaseToken: 'tok-1', now: 1_100, result: '1' });
    expect(await store.renewLease({ ...id, leaseToken: 'tok-1', now: 1_120, leaseMs: 100 })).toBe(false);
    expect((await store.get(id))?.leaseExpiresAt).toBe(1_150);
    const saga = store.saga(table);
    await saga.claim({
      ...id,
      operation: 'op',
      argsHash: 'a'.repeat(64),
      compensationOperation: null,
      leaseToken: 'tok-s',
      now: 1_000,
      leaseMs: 100,
      ttlMs: 60_000,
    });
    expect(await saga.renewLease({ ...id, leaseToken: 'tok-s', now: 1_090, leaseMs: 100 })).toBe(true);
    expect(await saga.renewLease({ ...id, leaseToken: 'other', now: 1_090, leaseMs: 100 })).toBe(false);
    expect((await saga.get(id))?.leaseExpiresAt).toBe(1_190);
  });

  it.each(['native-key', 'fail-closed'] as const)(
    '%s: a call longer than its lease is waited on and replayed, never called twice',
    async (mechanism) => {
      const idem = createIdempotency({ store, leaseMs: 300, waitMs: 5_000, pollMs: 20 });
      let calls = 0;
      const req = { operation: 'POST /slow', key: KEY(`slow-${mechanism}`), args: { n: 1 }, mechanism };
      const first = idem.run(req, async () => {
        calls++;
        await sleep(900);
        return 'done';
      });
      await sleep(450); // the 300 ms lease would have lapsed without renewal
      const retry = await idem.run(req, async () => {
        calls++;
        return 'again';
      });
      expect(retry).toMatchObject({ result: 'done', wasReplay: true });
      expect(await first).toMatchObject({ result: 'done', wasReplay: false });
      expect(calls).toBe(1);
    },
  );

  it('saga: a call longer than its lease is not reconciled-and-called again by a retry', async () => {
    let effects = 0;
    const req = {
      operation: 'POST /charges',
      key: KEY('saga-slow'),
      args: { amount: 4 },
      table,
      leaseMs: 300,
      waitMs: 5_000,
      pollMs: 20,
    };
    const handlers = {
      call: async () => ({ externalId: `ch_${++effects}`, result: { n: effects } }),
      reconcile: async () => ({ status: 'not-happened' as const }), // the slow request has not landed yet
    };
    const first = runSaga(store, req, {
      ...handlers,
      call: async () => {
        const id = `ch_${++effects}`;
        await sleep(900);
        return { externalId: id, result: { n: 1 } };
      },
    });
    await sleep(450);
    const retry = await runSaga(store, req, handlers);
    expect(retry).toMatchObject({ externalId: 'ch_1', wasReplay: true });
    expect(await first).toMatchObject({ externalId: 'ch_1', wasReplay: false });
    expect(effects).toBe(1);
  });

  it('saga: a fenced late completion keeps its external id as an orphan that reconcileSagas compensates', async () => {
    let now = 9_000_000;
    const req = {
      operation: 'POST /charges',
      key: KEY('saga-orphan'),
      args: { amount: 8 },
      compensationOperation: 'POST /refunds',
      table,
      leaseMs: 1_000,
      heartbeatMs: 0,
      now: () => now,
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const late = runSaga(store, req, {
      call: async () => {
        await gate;
        return { externalId: 'ch_late', result: 1 };
      },
    });
    await sleep(20);
    now += 5_000; // the late caller stalled (heartbeat off): its lease lapsed
    const retry = await runSaga(store, req, {
      call: async () => ({ externalId: 'ch_retry', result: 2 }),
      reconcile: async () => ({ status: 'not-happened' }),
    });
    expect(retry).toMatchObject({ externalId: 'ch_retry', wasReplay: false });
    release();
    const err = await late.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyFencedError);
    expect(err).toMatchObject({ externalId: 'ch_late', result: 1 });
    const refunded: string[] = [];
    const outcomes = await reconcileSagas(
      store,
      { compensate: async (id) => void refunded.push(id) },
      { table, now: () => now + 1 },
    );
    expect(refunded).toEqual(['ch_late']);
    expect(outcomes.map((o) => o.action)).toContain('compensated');
    expect(await store.saga(table).get({ scope: '', key: KEY('saga-orphan') })).toMatchObject({
      status: 'completed',
      externalId: 'ch_retry',
    });
  });

  it('saga: a fenced completion whose external id the retry adopted is simply returned', async () => {
    let now = 9_500_000;
    const req = {
      operation: 'POST /charges',
      key: KEY('saga-adopt'),
      args: { amount: 9 },
      table,
      leaseMs: 1_000,
      heartbeatMs: 0,
      now: () => now,
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const late = runSaga(store, req, {
      call: async () => {
        await gate;
        return { externalId: 'ch_same', result: 1 };
      },
    });
    await sleep(20);
    now += 5_000;
    await runSaga(store, req, {
      call: async () => ({ externalId: 'x', result: 0 }),
      reconcile: async () => ({ status: 'happened', externalId: 'ch_same', result: 1 }),
    });
    release();
    expect(await late).toMatchObject({ externalId: 'ch_same', result: 1 });
  });
});
