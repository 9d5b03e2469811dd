/** OP-5 saga and OP-8 checkpoint on the saga intent table made by the generated migration. */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  checkpoint,
  compensateSaga,
  IdempotencyConflictError,
  IdempotencyOutcomeUnknownError,
  reconcileSagas,
  runSaga,
  type FullDedupStore,
  type SagaHandlers,
} from '../../../packages/runtime/src/index.js';
import { makeStore, STORE_KINDS, type TestStore } from '../store/stores.js';

const KEY = (n: string) => `saga-${n}-0123456789abcdef`;

describe.each(STORE_KINDS)('runSaga on %s', (kind) => {
  let t: TestStore;
  let store: FullDedupStore;
  let table: string;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'saga');
    store = t.store;
    table = t.location.sagaTable;
  });
  afterAll(() => t.cleanup());

  function charges() {
    const created: string[] = [];
    const refunded: string[] = [];
    const handlers: SagaHandlers<{ id: string }> = {
      call: async () => {
        const id = `ch_${created.length + 1}`;
        created.push(id);
        return { externalId: id, result: { id } };
      },
      compensate: async (externalId) => void refunded.push(externalId),
    };
    return { created, refunded, handlers };
  }

  it('intent → call → completed with the external id; a duplicate returns the stored id without calling', async () => {
    const c = charges();
    const req = {
      operation: 'POST /charges',
      key: KEY('dup'),
      args: { amount: 10 },
      compensationOperation: 'POST /refunds',
      table,
    };
    const first = await runSaga(store, req, c.handlers);
    const second = await runSaga(store, req, c.handlers);
    expect(first).toMatchObject({ externalId: 'ch_1', wasReplay: false, result: { id: 'ch_1' } });
    expect(second).toMatchObject({ externalId: 'ch_1', wasReplay: true, result: { id: 'ch_1' } });
    expect(c.created).toEqual(['ch_1']);
    await expect(runSaga(store, { ...req, args: { amount: 11 } }, c.handlers)).rejects.toBeInstanceOf(
      IdempotencyConflictError,
    );
  });

  it('an ambiguous failure leaves the intent pending; without reconcile a retry fails closed', async () => {
    const req = { operation: 'POST /wires', key: KEY('ambig'), args: { amount: 5 }, table };
    let calls = 0;
    const boom = {
      call: async () => {
        calls++;
        throw new Error('gateway timeout');
      },
    };
    await expect(runSaga(store, req, boom)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    await expect(runSaga(store, req, boom)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(calls).toBe(1);
  });

  it('stale pending + reconcile: a found effect is adopted (not repeated); a confirmed absence runs the call', async () => {
    const c = charges();
    let now = 1_000_000;
    const base = { operation: 'POST /charges', args: { amount: 3 }, table, leaseMs: 1_000, now: () => now };
    const crash = {
      call: async () => {
        throw new Error('reset after send');
      },
    };
    await runSaga(store, { ...base, key: KEY('adopt') }, crash).catch(() => undefined);
    await runSaga(store, { ...base, key: KEY('absent') }, crash).catch(() => undefined);
    now += 5_000;
    const adopted = await runSaga(
      store,
      { ...base, key: KEY('adopt') },
      {
        ...c.handlers,
        reconcile: async () => ({ status: 'happened', externalId: 'ch_found', result: { id: 'ch_found' } }),
      },
    );
    expect(adopted).toMatchObject({ externalId: 'ch_found', wasReplay: true });
    const rerun = await runSaga(
      store,
      { ...base, key: KEY('absent') },
      { ...c.handlers, reconcile: async () => ({ status: 'not-happened' }) },
    );
    expect(rerun).toMatchObject({ externalId: 'ch_1', wasReplay: false });
    expect(c.created).toEqual(['ch_1']);
  });

  it('the reconcile job compensates orphans through the linked operation', async () => {
    const c = charges();
    let now = 2_000_000;
    const req = {
      operation: 'POST /charges',
      key: KEY('orphan'),
      args: { amount: 9 },
      compensationOperation: 'POST /refunds',
      table,
      leaseMs: 1_000,
      now: () => now,
    };
    await runSaga(store, req, {
      call: async () => {
        throw new Error('crash');
      },
    }).catch(() => undefined);
    now += 5_000;
    const seen: (string | null)[] = [];
    const outcomes = await reconcileSagas(
      store,
      {
        reconcile: async (row) => {
          seen.push(row.compensationOperation);
          return { status: 'happened', externalId: 'ch_orphan' };
        },
        compensate: c.handlers.compensate,
      },
      { table, now: () => now },
    );
    expect(outcomes.find((o) => o.row.key === KEY('orphan'))?.action).toBe('compensated');
    expect(seen).toContain('POST /refunds');
    expect(c.refunded).toEqual(['ch_orphan']);
    expect(await store.saga(table).get({ scope: '', key: KEY('orphan') })).toMatchObject({
      status: 'compensated',
      externalId: 'ch_orphan',
    });
  });

  it('compensateSaga undoes a completed saga once', async () => {
    const c = charges();
    const req = {
      operation: 'POST /charges',
      key: KEY('undo'),
      args: { amount: 1 },
      compensationOperation: 'POST /refunds',
      table,
    };
    await runSaga(store, req, c.handlers);
    const row = await compensateSaga(store, { key: KEY('undo'), table }, c.handlers.compensate!);
    expect(row).toMatchObject({ status: 'compensated' });
    await compensateSaga(store, { key: KEY('undo'), table }, c.handlers.compensate!);
    expect(c.refunded).toEqual(['ch_1']);
  });

  it('a compensating row past its TTL is not replaced by a new claim (an undo in progress is never forgotten)', async () => {
    const saga = store.saga(table);
    const id = { scope: '', key: KEY('undoing') };
    const base = {
      ...id,
      operation: 'POST /charges',
      argsHash: 'c'.repeat(64),
      compensationOperation: 'POST /refunds',
      leaseMs: 1_000,
      ttlMs: 10_000,
    };
    await saga.claim({ ...base, leaseToken: 'tok-a', now: 3_000_000 });
    expect(
      await saga.transition({
        ...id,
        leaseToken: 'tok-a',
        now: 3_000_001,
        from: ['pending'],
        to: 'compensating',
        externalId: 'ch_9',
        leaseMs: 0,
      }),
    ).toBe(true);
    const later = await saga.claim({ ...base, leaseToken: 'tok-b', now: 3_000_000 + 60_000 });
    expect(later).toMatchObject({
      claimed: false,
      row: { status: 'compensating', externalId: 'ch_9', leaseToken: 'tok-a' },
    });
  });

  it('checkpoint (OP-8) persists pending before the call and replays after', async () => {
    let calls = 0;
    const req = { operation: 'crew:publish', key: KEY('ckpt'), args: { post: 1 } };
    const seenPending: unknown[] = [];
    const first = await checkpoint(store, req, async () => {
      seenPending.push((await store.get({ scope: '', key: KEY('ckpt') }))?.status);
      return ++calls;
    });
    const again = await checkpoint(store, req, async () => ++calls);
    expect(seenPending).toEqual(['pending']);
    expect([first.wasReplay, again.wasReplay, again.result, calls]).toEqual([false, true, 1, 1]);
  });
});
