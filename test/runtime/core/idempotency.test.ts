/**
 * The state machine of DESIGN §5, row by row, on every store (memory, SQLite file, PostgreSQL).
 * Side effects are counted by the test; the clock is injected where lease expiry matters.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createIdempotency,
  IdempotencyConflictError,
  IdempotencyInFlightError,
  IdempotencyKeyInvalidError,
  IdempotencyNotSentError,
  IdempotencyOutcomeUnknownError,
  IdempotencyResultTooLargeError,
  notExecuted,
  reconcileReport,
  pruneExpired,
  type DedupStore,
} from '../../../packages/runtime/src/index.js';
import { makeStore, STORE_KINDS, type TestStore } from '../store/stores.js';

const KEY = (n: string) => `key-${n}-0123456789abcdef`;
const defer = <T>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe.each(STORE_KINDS)('createIdempotency on %s', (kind) => {
  let t: TestStore;
  let store: DedupStore;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'sm', { clock: 'caller' }); // some tests drive time through `now`
    store = t.store;
  });
  afterAll(() => t.cleanup());

  it('first call runs and completes; a repeat replays without calling (SOP Step 7)', async () => {
    const idem = createIdempotency({ store });
    let calls = 0;
    const req = {
      operation: 'tool:send_email',
      key: KEY('first'),
      args: { to: 'a@x', n: 1 },
      mechanism: 'fail-closed' as const,
    };
    const first = await idem.run(req, async (ctx) => ({ id: `msg_${++calls}`, attempt: ctx.attempt }));
    const second = await idem.run({ ...req, args: { n: 1.0, to: 'a@x' } }, async () => ({
      id: `msg_${++calls}`,
      attempt: 0,
    }));
    expect(first).toMatchObject({ result: { id: 'msg_1', attempt: 1 }, wasReplay: false });
    expect(second).toMatchObject({ result: { id: 'msg_1', attempt: 1 }, wasReplay: true });
    expect(second.originalCalledAt.getTime()).toBe(first.originalCalledAt.getTime());
    expect(calls).toBe(1);
  });

  it('same key, different args → IdempotencyConflictError carrying the stored row; no call', async () => {
    const idem = createIdempotency({ store });
    let calls = 0;
    const req = {
      operation: 'tool:send_email',
      key: KEY('conflict'),
      scope: { tenant: 'acme' },
      args: { body: 'hi' },
      mechanism: 'fail-closed' as const,
    };
    await idem.run(req, async () => ++calls);
    const err = await idem.run({ ...req, args: { body: 'hello' } }, async () => ++calls).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyConflictError);
    expect(err).toMatchObject({
      key: KEY('conflict'),
      operation: 'tool:send_email',
      scope: '{"tenant":"acme"}',
      state: { status: 'completed' },
    });
    expect(calls).toBe(1);
  });

  it('scopes are namespaces: another tenant with the same key runs its own call', async () => {
    const idem = createIdempotency({ store });
    const req = {
      operation: 'POST /v1/charges',
      key: KEY('scoped'),
      args: { amount: 5 },
      mechanism: 'dedup-table' as const,
    };
    const a = await idem.run({ ...req, scope: 'tenant-a' }, async () => 'a');
    const b = await idem.run({ ...req, scope: 'tenant-b' }, async () => 'b');
    expect([a.result, b.result, a.wasReplay, b.wasReplay]).toEqual(['a', 'b', false, false]);
  });

  it('in flight: a duplicate waits for the first and replays; past the bound it gets IdempotencyInFlightError', async () => {
    const idem = createIdempotency({ store, waitMs: 2_000, pollMs: 10 });
    const gate = defer<void>();
    const req = { operation: 'tool:book', key: KEY('inflight'), args: {}, mechanism: 'fail-closed' as const };
    const first = idem.run(req, async () => {
      await gate.promise;
      return 'booked';
    });
    await new Promise((r) => setTimeout(r, 30));
    const impatient = createIdempotency({ store, waitMs: 20, pollMs: 10 });
    await expect(impatient.run(req, async () => 'again')).rejects.toBeInstanceOf(IdempotencyInFlightError);
    const waiter = idem.run(req, async () => 'again');
    gate.resolve();
    expect(await first).toMatchObject({ result: 'booked', wasReplay: false });
    expect(await waiter).toMatchObject({ result: 'booked', wasReplay: true });
  });

  it('notExecuted(err) releases the row; a retry runs. A bare IdempotencyNotSentError from fn is not trusted', async () => {
    const idem = createIdempotency({ store });
    const req = { operation: 'tool:notify', key: KEY('notsent'), args: { x: 1 }, mechanism: 'fail-closed' as const };
    await expect(
      idem.run(req, async () => {
        throw notExecuted(new Error('invalid recipient'));
      }),
    ).rejects.toThrow('invalid recipient');
    expect(await store.get({ scope: '', key: KEY('notsent') })).toBeUndefined();
    expect(await idem.run(req, async () => 'sent')).toMatchObject({ result: 'sent', wasReplay: false });
    // Not produced by the HTTP caller for this run's single request: maybe after an effect → fail closed.
    const bare = { ...req, key: KEY('notsent-bare') };
    await expect(
      idem.run(bare, async () => {
        throw new IdempotencyNotSentError('ECONNREFUSED');
      }),
    ).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(await store.get({ scope: '', key: KEY('notsent-bare') })).toMatchObject({ status: 'pending' });
  });

  it('an ambiguous failure fails closed: IdempotencyOutcomeUnknownError now and on every retry; reconcile lists it', async () => {
    const idem = createIdempotency({ store });
    let calls = 0;
    const req = {
      operation: 'tool:send_sms',
      key: KEY('ambiguous'),
      args: { to: '+1' },
      mechanism: 'fail-closed' as const,
    };
    const boom = async () => {
      calls++;
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    };
    await expect(idem.run(req, boom)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    await expect(idem.run(req, boom)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(calls).toBe(1);
    const stale = await reconcileReport(store);
    const row = stale.find((r) => r.key === KEY('ambiguous'));
    expect(row).toMatchObject({
      status: 'pending',
      lastError: { outcome: 'unknown', code: 'ECONNRESET', message: 'socket hang up' },
    });
  });

  it('OP-1 ambiguous failure stays retryable: the retry takes over with the SAME key', async () => {
    const idem = createIdempotency({ store });
    const keysSeen: string[] = [];
    const req = {
      operation: 'POST /v1/charges',
      key: KEY('native'),
      args: { amount: 100 },
      mechanism: 'native-key' as const,
    };
    await expect(
      idem.run(req, async (ctx) => {
        keysSeen.push(ctx.key);
        throw new Error('timeout');
      }),
    ).rejects.toThrow('timeout');
    const ok = await idem.run(req, async (ctx) => {
      keysSeen.push(ctx.key);
      return { id: 'ch_1', attempt: ctx.attempt };
    });
    expect(ok).toMatchObject({ result: { id: 'ch_1', attempt: 2 }, wasReplay: false });
    expect(keysSeen).toEqual([KEY('native'), KEY('native')]);
  });

  it("fencing (S1): an OP-1 finisher whose lease lapsed (no heartbeat) gets its result; the row keeps the takeover's", async () => {
    let now = 50_000_000;
    const idem = createIdempotency({ store, leaseMs: 1_000, heartbeatMs: 0, now: () => now }); // a stalled process
    const late = defer<void>();
    const req = {
      operation: 'POST /v1/transfers',
      key: KEY('fenced'),
      args: { amount: 7 },
      mechanism: 'native-key' as const,
    };
    const slow = idem.run(req, async () => {
      await late.promise;
      return 'late';
    });
    await new Promise((r) => setTimeout(r, 20));
    now += 5_000; // lease expired
    const fresh = await idem.run(req, async (ctx) => `fresh-${ctx.attempt}`);
    expect(fresh).toMatchObject({ result: 'fresh-2', wasReplay: false });
    late.resolve();
    // The server deduped the native key, so the late answer is the effect's answer, not an error.
    expect(await slow).toMatchObject({ result: 'late', wasReplay: false });
    expect(await store.get({ scope: '', key: KEY('fenced') })).toMatchObject({
      status: 'completed',
      result: '"fresh-2"',
    });
    expect(await idem.run(req, async () => 'x')).toMatchObject({ result: 'fresh-2', wasReplay: true });
  });

  it('expired lease without a native key → IdempotencyOutcomeUnknownError, never called again', async () => {
    let now = 60_000_000;
    const idem = createIdempotency({ store, leaseMs: 1_000, waitMs: 0, now: () => now });
    const hang = defer<void>();
    let calls = 0;
    const req = { operation: 'tool:wire', key: KEY('crashed'), args: {}, mechanism: 'saga' as const };
    void idem
      .run(req, async () => {
        calls++;
        await hang.promise;
      })
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20));
    await expect(idem.run(req, async () => void calls++)).rejects.toBeInstanceOf(IdempotencyInFlightError);
    now += 2_000;
    await expect(idem.run(req, async () => void calls++)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(calls).toBe(1);
    hang.resolve();
  });

  it('TTL per operation: after the window the key is new again; pruneExpired removes the old row', async () => {
    let now = 70_000_000;
    const idem = createIdempotency({ store, now: () => now });
    const req = {
      operation: 'tool:digest',
      key: KEY('ttl'),
      args: {},
      mechanism: 'dedup-table' as const,
      ttlSeconds: 60,
    };
    await idem.run(req, async () => 'day-1');
    now += 30_000;
    expect(await idem.run(req, async () => 'nope')).toMatchObject({ result: 'day-1', wasReplay: true });
    now += 31_000;
    expect(await idem.run(req, async () => 'day-2')).toMatchObject({ result: 'day-2', wasReplay: false });
    const other = { ...req, key: KEY('ttl-prune') };
    await idem.run(other, async () => 1);
    expect(await pruneExpired(store, { now: now + 61_000 })).toBe(2); // both rows of this test
    expect(await store.get({ scope: '', key: KEY('ttl') })).toBeUndefined();
    expect(await store.get({ scope: '', key: KEY('ttl-prune') })).toBeUndefined();
  });

  it('redaction applies to the stored copy; an oversized result stores a marker and the replay says so', async () => {
    const idem = createIdempotency({
      store,
      maxResultBytes: 64,
      redact: (r) => ({ ...(r as object), card: '[redacted]' }),
    });
    const a = await idem.run(
      { operation: 'tool:pay', key: KEY('redact'), args: {}, mechanism: 'dedup-table' },
      async () => ({
        card: '4242',
        ok: true,
      }),
    );
    expect(a.result).toEqual({ card: '4242', ok: true });
    const replay = await idem.run(
      { operation: 'tool:pay', key: KEY('redact'), args: {}, mechanism: 'dedup-table' },
      async () => ({}),
    );
    expect(replay).toMatchObject({ result: { card: '[redacted]', ok: true }, wasReplay: true });
    const big = { operation: 'tool:export', key: KEY('big'), args: {}, mechanism: 'dedup-table' as const };
    expect((await idem.run(big, async () => 'x'.repeat(500))).result).toHaveLength(500);
    await expect(idem.run(big, async () => 'again')).rejects.toBeInstanceOf(IdempotencyResultTooLargeError);
  });

  it('validates the key before touching the store', async () => {
    const idem = createIdempotency({ store });
    const err = await idem
      .run({ operation: 'tool:x', key: 'short', args: {}, mechanism: 'dedup-table' }, async () => 1)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyKeyInvalidError);
    expect(err).toMatchObject({ operation: 'tool:x', key: 'short' });
  });

  it('200 concurrent identical calls with one key → exactly one side effect', async () => {
    const idem = createIdempotency({ store, waitMs: 20_000, pollMs: 5 });
    let effects = 0;
    const req = { operation: 'tool:charge', key: KEY('herd'), args: { amount: 1 }, mechanism: 'fail-closed' as const };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, () =>
        idem.run(req, async () => {
          effects++;
          await new Promise((r) => setTimeout(r, 20));
          return 'charged';
        }),
      ),
    );
    expect(effects).toBe(1);
    const fulfilled = outcomes
      .filter((o) => o.status === 'fulfilled')
      .map((o) => (o as PromiseFulfilledResult<{ wasReplay: boolean; result: string }>).value);
    const rejected = outcomes
      .filter((o) => o.status === 'rejected')
      .map((o) => (o as PromiseRejectedResult).reason as unknown);
    expect(fulfilled.filter((v) => !v.wasReplay)).toHaveLength(1);
    expect(fulfilled.every((v) => v.result === 'charged')).toBe(true);
    expect(rejected.every((e) => e instanceof IdempotencyInFlightError)).toBe(true);
  });
});
