/**
 * The dedup window and the store's clock, on every store and in real time (no simulated clock on the stores):
 * - the dedup window counts from the completion, so a call that outlives its TTL (the heartbeat keeps
 *   its lease) still replays right after, and a completed row keeps its full window;
 * - PostgreSQL, MariaDB and Redis judge leases and expiry by their own clock, so a runtime whose clock
 *   is 10 s ahead or behind neither takes over a live call nor sees a completed row expire early;
 * - a TTL at or below the lease is refused when the runtime is created (and per call).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createIdempotency,
  IdempotencyInFlightError,
  type DedupStore,
  type FullDedupStore,
} from '../../../packages/runtime/src/index.js';
import { createMysqlStore } from '../../../packages/runtime/src/store/mysql.js';
import { createPostgresStore } from '../../../packages/runtime/src/store/postgres.js';
import { createRedisStore } from '../../../packages/runtime/src/store/redis/store.js';
import { makeStore, STORE_KINDS, type StoreKind, type TestStore } from './stores.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let n = 0;
const KEY = (what: string) => `win-${what}-${process.pid}-${++n}-0123456789`;

/** A second store object on the same table: another application server. */
function secondStore(kind: StoreKind, t: TestStore): FullDedupStore {
  const l = t.location;
  if (kind === 'postgres')
    return createPostgresStore({ connectionString: l.connectionString, schema: l.schema, table: l.table });
  if (kind === 'mysql') return createMysqlStore({ uri: l.url, database: l.database, table: l.table });
  if (kind === 'redis') return createRedisStore({ url: l.url, prefix: l.prefix, table: l.table });
  throw new Error(`${kind} is single-host`);
}

describe.each(STORE_KINDS)('the window from completion on %s', (kind) => {
  let t: TestStore;
  let store: DedupStore;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'win');
    store = t.store;
  });
  afterAll(() => t.cleanup());

  it('a call longer than its TTL, kept alive by the heartbeat, replays right after (0 re-executions)', async () => {
    const idem = createIdempotency({ store, leaseMs: 300, heartbeatMs: 100, waitMs: 0 });
    const req = {
      operation: 'tool:export',
      key: KEY('long'),
      args: { n: 1 },
      mechanism: 'dedup-table' as const,
      ttlSeconds: 0.5,
    };
    let calls = 0;
    const first = await idem.run(req, async () => {
      calls++;
      await sleep(900); // > ttl (500 ms) and > lease (300 ms)
      return 'done';
    });
    expect(first).toMatchObject({ result: 'done', wasReplay: false });
    const retry = await idem.run(req, async () => {
      calls++;
      return 'again';
    });
    expect(retry).toMatchObject({ result: 'done', wasReplay: true });
    expect(calls).toBe(1);
  });

  it('a completed row keeps its full window from the completion, and the window then ends', async () => {
    const idem = createIdempotency({ store, leaseMs: 300, heartbeatMs: 100, waitMs: 0 });
    const req = {
      operation: 'tool:report',
      key: KEY('full'),
      args: {},
      mechanism: 'dedup-table' as const,
      ttlSeconds: 0.8,
    };
    let calls = 0;
    const run = () =>
      idem.run(req, async () => {
        calls++;
        await sleep(calls === 1 ? 500 : 0);
        return `v${calls}`;
      });
    await run();
    const row = await store.get({ scope: '', key: req.key });
    expect(row).toMatchObject({ status: 'completed' });
    expect(row!.expiresAt - row!.completedAt!).toBe(800);
    await sleep(450); // past claim + 800 ms, well inside completion + 800 ms
    expect(await run()).toMatchObject({ result: 'v1', wasReplay: true });
    expect(calls).toBe(1);
    await sleep(600); // past completion + 800 ms: the key is new again
    expect(await run()).toMatchObject({ result: 'v2', wasReplay: false });
    expect(calls).toBe(2);
  });

  it("an operator's resolution as completed restarts the window; direct store calls use the store's times", async () => {
    const full = t.store;
    const id = { scope: 'ops', key: KEY('resolved') };
    const claimed = await full.claim({
      ...id,
      operation: 'POST /x',
      argsHash: 'e'.repeat(64),
      mechanism: 'fail-closed',
      leaseToken: 'tok-resolved',
      now: Date.now(),
      leaseMs: 100,
      ttlMs: 700,
    });
    expect(claimed.claimed).toBe(true);
    expect(claimed.row.expiresAt - claimed.row.createdAt).toBe(700);
    expect(await full.markUnknown({ ...id, leaseToken: 'tok-resolved', now: Date.now(), error: '{}' })).toBe(true);
    await sleep(800); // past claim + 700 ms
    const resolved = await full.resolve({
      ...id,
      as: 'completed',
      result: '"ok"',
      error: '',
      resolution: '{"by":"ops"}',
      now: Date.now(),
    });
    expect(resolved).toMatchObject({ status: 'completed', result: '"ok"' });
    expect(resolved!.expiresAt - resolved!.completedAt!).toBe(700);
    const retry = await full.claim({
      ...id,
      operation: 'POST /x',
      argsHash: 'e'.repeat(64),
      mechanism: 'fail-closed',
      leaseToken: 'tok-retry',
      now: Date.now(),
      leaseMs: 100,
      ttlMs: 700,
    });
    expect(retry).toMatchObject({ claimed: false, row: { status: 'completed', result: '"ok"' } });
  });

  it('a TTL at or below the lease is refused when the runtime is created, and per call', async () => {
    expect(() => createIdempotency({ store, leaseMs: 30_000, defaultTtlSeconds: 30 })).toThrow(
      'createIdempotency: defaultTtlSeconds (30 s = 30000 ms) must be longer than leaseMs (30000 ms)',
    );
    expect(() => createIdempotency({ store, leaseMs: 60_000, defaultTtlSeconds: 10 })).toThrow(TypeError);
    const idem = createIdempotency({ store, leaseMs: 5_000 });
    let calls = 0;
    const req = { operation: 'tool:x', key: KEY('short'), args: {}, mechanism: 'dedup-table' as const, ttlSeconds: 5 };
    await expect(idem.run(req, async () => ++calls)).rejects.toThrow(
      'ttlSeconds of tool:x (5 s = 5000 ms) must be longer than leaseMs (5000 ms)',
    );
    expect(calls).toBe(0);
    expect(await store.get({ scope: '', key: req.key })).toBeUndefined();
  });
});

/** Two application servers on one store; the second one's clock is `skewMs` off. */
describe.each(
  (['postgres', 'mysql', 'redis'] as const).flatMap((kind) => [
    [kind, 10_000],
    [kind, -10_000],
  ]),
)('the store clock on %s with one runtime %i ms off', (kind, skewMs) => {
  let t: TestStore;
  let other: FullDedupStore;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'skew');
    other = secondStore(kind, t);
  });
  afterAll(async () => {
    await other.close();
    await t.cleanup();
  });

  const runtimes = () => {
    const opts = { leaseMs: 2_000, heartbeatMs: 400, waitMs: 0 };
    return {
      right: createIdempotency({ ...opts, store: t.store }),
      skewed: createIdempotency({ ...opts, store: other, now: () => Date.now() + skewMs }),
    };
  };

  for (const owner of ['right', 'skewed'] as const) {
    const dup = owner === 'right' ? 'skewed' : 'right';
    it(`no takeover of a live native-key call: the ${owner} runtime runs it, the ${dup} one retries`, async () => {
      const rt = runtimes();
      const req = {
        operation: 'POST /v1/transfers',
        key: KEY(`live-${owner}`),
        args: { amount: 5 },
        mechanism: 'native-key' as const,
      };
      let calls = 0;
      const first = rt[owner].run(req, async () => {
        calls++;
        await sleep(1_500);
        return 'tr_1';
      });
      await sleep(200);
      const dupe = await rt[dup].run(req, async () => ++calls).catch((e: unknown) => e);
      expect(dupe).toBeInstanceOf(IdempotencyInFlightError);
      expect(await first).toMatchObject({ result: 'tr_1', wasReplay: false });
      expect(calls).toBe(1);
    });

    it(`no early expiry: a row the ${owner} runtime completed replays on the ${dup} one and on itself`, async () => {
      const rt = runtimes();
      const req = {
        operation: 'tool:send',
        key: KEY(`done-${owner}`),
        args: {},
        mechanism: 'dedup-table' as const,
        ttlSeconds: 5,
      };
      let calls = 0;
      const call = async () => `sent-${++calls}`;
      await rt[owner].run(req, call);
      expect(await rt[dup].run(req, call)).toMatchObject({ result: 'sent-1', wasReplay: true });
      expect(await rt[owner].run(req, call)).toMatchObject({ result: 'sent-1', wasReplay: true });
      expect(calls).toBe(1);
      const row = await t.store.get({ scope: '', key: req.key });
      // The times are the server's: within a few seconds of this host's clock, not 10 s off.
      expect(Math.abs(row!.completedAt! - Date.now())).toBeLessThan(3_000);
      expect(row!.expiresAt - row!.completedAt!).toBe(5_000);
    });
  }
});
