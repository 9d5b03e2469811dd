/**
 * What only the Redis store has to prove on top of the shared suite: native TTL on resolved rows
 * and none on unresolved ones, one key per row and no index (listStale scans the rows), scripts surviving a SCRIPT FLUSH (a restarted or failed-over server),
 * a caller-supplied client, and the OP-7 in-process window in front of it across a "restart".
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FullDedupStore } from '../../../packages/runtime/src/index.js';
import { createRedisStore } from '../../../packages/runtime/src/store/redis/store.js';
import { REPLAY_META } from '../../../packages/runtime/src/mcp/index.js';
import { createFixtureServer } from '../mcp/fixture-server.js';

const HASH = 'c'.repeat(64);
type Raw = ReturnType<typeof createClient>;

describe('Redis store specifics', () => {
  let raw: Raw;
  let store: FullDedupStore;
  const prefix = `rs_${process.pid}`;
  beforeAll(async () => {
    raw = createClient({ url: inject('redisUrl') });
    await raw.connect();
    store = createRedisStore({ client: raw, prefix, clock: 'caller' }); // the tests drive time through `now`
  });
  afterAll(async () => {
    await store.close(); // a caller's client is not closed by the store
    for await (const keys of raw.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 }))
      if (keys.length) await raw.del(keys);
    await raw.close();
  });

  const rowKey = (key: string) => `${prefix}:{idemgen_dedup}:row:0::${key}`;
  const claim = (key: string, now = Date.now()) =>
    store.claim({
      scope: '',
      key,
      operation: 'POST /x',
      argsHash: HASH,
      mechanism: 'fail-closed',
      leaseToken: `t-${key}`,
      now,
      leaseMs: 60_000,
      ttlMs: 5_000,
    });

  it('pending rows never expire; a completed row expires natively at expires_at', async () => {
    const now = Date.now();
    await claim('ttl-key-00000001', now);
    expect(await raw.pTTL(rowKey('ttl-key-00000001'))).toBe(-1);
    await store.complete({ scope: '', key: 'ttl-key-00000001', leaseToken: 't-ttl-key-00000001', now, result: '1' });
    const ttl = await raw.pTTL(rowKey('ttl-key-00000001'));
    expect(ttl).toBeGreaterThan(4_000);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });

  // Scripts run as a Redis Functions library (functions.ts), loaded on the first miss.
  const settle = async (s: FullDedupStore, key: string) => {
    const now = Date.now();
    expect((await s.claim({ ...input(key), leaseToken: `t-${key}`, now })).claimed).toBe(true);
    expect(await s.complete({ scope: '', key, leaseToken: `t-${key}`, now, result: '1' })).toBe(true);
    expect(await s.get({ scope: '', key })).toMatchObject({ status: 'completed', result: '1' });
  };
  const input = (key: string) => ({
    scope: '',
    key,
    operation: 'POST /x',
    argsHash: HASH,
    mechanism: 'fail-closed' as const,
    leaseMs: 60_000,
    ttlMs: 5_000,
  });

  it('loads its function library on first use and again after FUNCTION FLUSH', async () => {
    await raw.sendCommand(['FUNCTION', 'FLUSH']);
    await settle(store, 'fn-key-000000001');
    const libs = (await raw.sendCommand(['FUNCTION', 'LIST', 'LIBRARYNAME', 'idemgen_*'])) as unknown[];
    expect(libs).toHaveLength(1);
    await raw.sendCommand(['FUNCTION', 'FLUSH']);
    await raw.sendCommand(['SCRIPT', 'FLUSH']);
    await settle(store, 'fn-key-000000002');
    expect(await raw.sendCommand(['FUNCTION', 'LIST', 'LIBRARYNAME', 'idemgen_*'])).toHaveLength(1);
  });

  it('a user without functions (ACL) runs the same scripts by EVALSHA, and by EVAL after SCRIPT FLUSH', async () => {
    const user = `nofn_${process.pid}`;
    await raw.sendCommand(['ACL', 'SETUSER', user, 'on', '>pw', '~*', '&*', '+@all', '-fcall', '-function']);
    const url = new URL(inject('redisUrl'));
    url.username = user;
    url.password = 'pw';
    const limited = createRedisStore({ url: url.toString(), prefix });
    try {
      await raw.sendCommand(['FUNCTION', 'FLUSH']);
      await raw.sendCommand(['SCRIPT', 'FLUSH']);
      await settle(limited, 'nofn-key-0000001');
      await raw.sendCommand(['SCRIPT', 'FLUSH']);
      await settle(limited, 'nofn-key-0000002');
      expect(await raw.sendCommand(['FUNCTION', 'LIST', 'LIBRARYNAME', 'idemgen_*'])).toHaveLength(0);
    } finally {
      await limited.close();
      await raw.sendCommand(['ACL', 'DELUSER', user]);
    }
  });

  it('an operator deleting a row leaves no ghost in listStale', async () => {
    const now = Date.now();
    await claim('ghost-key-000001', now - 120_000);
    expect((await store.listStale(now)).map((r) => r.key)).toContain('ghost-key-000001');
    await raw.del(rowKey('ghost-key-000001'));
    expect((await store.listStale(now)).map((r) => r.key)).not.toContain('ghost-key-000001');
  });

  // The completion of a row this store object claimed sends the finished row (COMPLETE_HELD); these pin
  // that it stores the same row as the general fenced script and is fenced in the same cases.
  it('a held completion stores the full row, heartbeats included', async () => {
    const now = Date.now();
    await claim('held-key-0000001', now);
    expect(
      await store.renewLease({
        scope: '',
        key: 'held-key-0000001',
        leaseToken: 't-held-key-0000001',
        now: now + 10,
        leaseMs: 90_000,
      }),
    ).toBe(true);
    expect(
      await store.complete({
        scope: '',
        key: 'held-key-0000001',
        leaseToken: 't-held-key-0000001',
        now: now + 20,
        result: '{"a":"x/y"}',
        externalId: 'ext_1',
      }),
    ).toBe(true);
    expect(await store.get({ scope: '', key: 'held-key-0000001' })).toMatchObject({
      status: 'completed',
      result: '{"a":"x/y"}',
      externalId: 'ext_1',
      error: null,
      completedAt: now + 20,
      leaseExpiresAt: now + 90_010,
      attempts: 1,
      createdAt: now,
      expiresAt: now + 20 + 5_000, // the window restarts at the completion
      leaseToken: 't-held-key-0000001',
    });
  });

  it('a held completion is fenced after another store object took the row over', async () => {
    const other = createRedisStore({ client: raw, prefix, clock: 'caller' });
    const now = Date.now();
    await store.claim({
      // lease long expired; the dedup window (10 min) still open
      scope: '',
      key: 'held-key-0000002',
      operation: 'POST /x',
      argsHash: HASH,
      mechanism: 'fail-closed',
      leaseToken: 't-held-key-0000002',
      now: now - 120_000,
      leaseMs: 60_000,
      ttlMs: 600_000,
    });
    const taken = await other.takeOver({
      scope: '',
      key: 'held-key-0000002',
      expectedToken: 't-held-key-0000002',
      newToken: 'new/token',
      now,
      leaseMs: 60_000,
    });
    expect(taken?.attempts).toBe(2);
    expect(
      await store.complete({ scope: '', key: 'held-key-0000002', leaseToken: 't-held-key-0000002', now, result: '1' }),
    ).toBe(false);
    // cjson wrote the taken-over token as `new\/token`: the substring check misses, the decode confirms.
    expect(await raw.get(rowKey('held-key-0000002'))).toContain('new\\/token');
    expect(
      await other.complete({ scope: '', key: 'held-key-0000002', leaseToken: 'new/token', now, result: '2' }),
    ).toBe(true);
    expect(await store.get({ scope: '', key: 'held-key-0000002' })).toMatchObject({
      status: 'completed',
      result: '2',
      attempts: 2,
    });
  });

  // A claim is one script (CLAIM_ROW) that writes the row and nothing else: listStale reads the rows.
  it('a fresh-key call writes one key, the row; a replay writes none', async () => {
    const own = `one_${process.pid}`;
    const solo = createRedisStore({ client: raw, prefix: own, clock: 'caller' });
    const now = Date.now();
    const id = { scope: '', key: 'solo-key-0000001' };
    const input = { ...id, operation: 'POST /x', argsHash: HASH, mechanism: 'fail-closed' as const };
    await solo.claim({ ...input, leaseToken: 't1', now, leaseMs: 60_000, ttlMs: 60_000 });
    await solo.complete({ ...id, leaseToken: 't1', now, result: '1' });
    const again = await solo.claim({ ...input, leaseToken: 't2', now: now + 1, leaseMs: 60_000, ttlMs: 60_000 });
    expect(again).toMatchObject({ claimed: false, row: { status: 'completed', result: '1', leaseToken: 't1' } });
    const keys: string[] = [];
    for await (const page of raw.scanIterator({ MATCH: `${own}:*`, COUNT: 1000 })) keys.push(...page);
    expect(keys).toEqual([`${own}:{idemgen_dedup}:row:0::solo-key-0000001`]);
    await raw.del(keys);
  });

  it('listStale scans every page: stuck rows only, oldest lease first, cut at the limit', async () => {
    const own = `scan_${process.pid}`;
    const big = createRedisStore({ client: raw, prefix: own, clock: 'caller' });
    const now = Date.now();
    const claimAt = (key: string, at: number, leaseMs = 60_000) =>
      big.claim({
        scope: 's',
        key,
        operation: 'POST /x',
        argsHash: HASH,
        mechanism: 'fail-closed',
        leaseToken: `t-${key}`,
        now: at,
        leaseMs,
        ttlMs: 600_000,
      });
    // 1,500 rows (three SCAN pages at least): live leases, completed rows, and five stuck ones among them.
    for (let i = 0; i < 1_500; i++) {
      const key = `fill-${String(i).padStart(10, '0')}`;
      await claimAt(key, now);
      if (i % 2) await big.complete({ scope: 's', key, leaseToken: `t-${key}`, now, result: '1' });
    }
    for (const [n, lease] of [3, 1, 4, 0, 2].entries())
      await claimAt(`stuck-${n}-000000000`, now - 100_000, lease * 1000);
    await big.markUnknown({
      scope: 's',
      key: 'stuck-4-000000000',
      leaseToken: 't-stuck-4-000000000',
      now: now - 99_500,
      error: '{}',
    });
    await claimAt('stuck-4-000000000', now); // a retry of the unknown outcome: still listed, not re-leased
    expect((await big.listStale(now)).map((r) => r.key)).toEqual([
      'stuck-3-000000000',
      'stuck-4-000000000',
      'stuck-1-000000000',
      'stuck-0-000000000',
      'stuck-2-000000000',
    ]);
    expect((await big.listStale(now, 2)).map((r) => r.key)).toEqual(['stuck-3-000000000', 'stuck-4-000000000']);
    expect(await big.listStale(now - 200_000)).toEqual([]);
    expect(await big.prune(now + 600_001)).toBe(750);
    expect((await big.listStale(now)).map((r) => r.key)).toHaveLength(5);
    for await (const page of raw.scanIterator({ MATCH: `${own}:*`, COUNT: 1000 })) if (page.length) await raw.del(page);
  });
});

describe('OP-7 window backed by Redis (MCP middleware)', () => {
  const url = () => inject('redisUrl');
  const prefix = `op7_${process.pid}`;
  const effects: unknown[] = [];
  async function serve(store: FullDedupStore): Promise<Client> {
    const server = createFixtureServer({ store, recordEffect: (a) => effects.push(a) });
    const [c, s] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 't', version: '1' });
    await Promise.all([server.connect(s), client.connect(c)]);
    return client;
  }

  it('the window answers a repeat in-process; after a restart (empty window) Redis replays it', async () => {
    const first = createRedisStore({ url: url(), prefix });
    const args = { channel: 'ops', text: 'deploy', idempotency_key: 'redis-op7-key-0000001' };
    const a = await serve(first);
    const r1 = await a.callTool({ name: 'send_message', arguments: args });
    const r2 = await a.callTool({ name: 'send_message', arguments: args });
    await a.close();
    await first.close();
    const restarted = createRedisStore({ url: url(), prefix });
    const b = await serve(restarted);
    const r3 = await b.callTool({ name: 'send_message', arguments: args });
    await b.close();
    await restarted.close();
    expect(effects).toHaveLength(1);
    expect(r2._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
    expect(r3._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
    expect(r3.structuredContent).toEqual(r1.structuredContent);
  });
});
