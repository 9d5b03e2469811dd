/**
 * Damaged rows and results a store cannot keep, on every store: a stored result damaged by the driver directly (a truncated write,
 * a hand edit) is a typed `IdempotencyRecordCorruptError` that reconcile lists and repairs; the in-flight
 * error says when to retry; a result the store cannot keep is flagged to the first caller and the retry's
 * answer is the stated one.
 */
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  corruptReport,
  createIdempotency,
  createMemoryStore,
  IdempotencyInFlightError,
  IdempotencyRecordCorruptError,
  IdempotencyResultTooLargeError,
  IdempotencyResultUnencodableError,
  resolveUnknown,
  type Idempotency,
} from '../../../packages/runtime/src/index.js';
import { hashArgs } from '../../../packages/runtime/src/support.js';
import { runCli } from '../../helpers/cli.js';
import { makeStore, STORE_KINDS, type StoreKind, type TestStore } from './stores.js';

const SCOPE = 'tenant-1';
const OP = 'POST /v1/charges';
const TRUNCATED = '{"id":"ch_1","amount":12';

/** Overwrite the stored result column (SQL) or the result inside the row (Redis) with the driver itself. */
async function damageResult(kind: StoreKind, t: TestStore, key: string, text: string): Promise<void> {
  const l = t.location;
  if (kind === 'sqlite') {
    const db = new Database(l.filename as string);
    db.prepare(`UPDATE "${l.table}" SET result = ? WHERE scope = ? AND idempotency_key = ?`).run(text, SCOPE, key);
    db.close();
  } else if (kind === 'postgres') {
    const c = new pg.Client({ connectionString: l.connectionString });
    await c.connect();
    await c.query(`UPDATE "${l.schema}"."${l.table}" SET result = $1 WHERE scope = $2 AND idempotency_key = $3`, [
      text,
      SCOPE,
      key,
    ]);
    await c.end();
  } else if (kind === 'mysql') {
    const c = await mysql.createConnection(l.url as string);
    await c.query(`UPDATE \`${l.database}\`.\`${l.table}\` SET result = ? WHERE scope = ? AND idempotency_key = ?`, [
      text,
      SCOPE,
      key,
    ]);
    await c.end();
  } else if (kind === 'redis') {
    await withRedis(l.url as string, async (c) => {
      const rowKey = `${l.prefix}:{${l.table}}:row:${SCOPE.length}:${SCOPE}:${key}`;
      const row = JSON.parse((await c.sendCommand(['GET', rowKey])) as string) as Record<string, unknown>;
      await c.sendCommand(['SET', rowKey, JSON.stringify({ ...row, result: text }), 'KEEPTTL']);
    });
  } else throw new Error(`no driver to damage a ${kind} row`);
}

type RawRedis = { sendCommand(args: string[]): Promise<unknown> };

async function withRedis<T>(url: string, fn: (c: RawRedis) => Promise<T>): Promise<T> {
  const c = createClient({ url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

const DAMAGEABLE: StoreKind[] = ['sqlite', 'postgres', 'mysql', 'redis'];

/** The store URL `idemgen reconcile --store` takes for a test store. */
function storeUrl(kind: StoreKind, t: TestStore): string {
  const l = t.location;
  if (kind === 'sqlite') return `sqlite:${l.filename}?table=${l.table}`;
  if (kind === 'postgres') return `${l.connectionString}?table=${l.table}&schema=${l.schema}`;
  if (kind === 'mysql') return `${l.url}?table=${l.table}&database=${l.database}`;
  return `${l.url}?table=${l.table}&prefix=${l.prefix}`;
}

describe.each(DAMAGEABLE)('a damaged stored result on %s', (kind) => {
  let t: TestStore;
  let idem: Idempotency;
  let effects: number;
  const charge = (key: string) =>
    idem.run({ operation: OP, key, scope: SCOPE, args: { amount: 12 }, mechanism: 'fail-closed' }, async () => {
      effects++;
      return { id: `ch_${effects}`, amount: 12 };
    });

  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'damage');
    idem = createIdempotency({ store: t.store, telemetry: false });
  });
  afterAll(() => t.cleanup());

  it('is IdempotencyRecordCorruptError with operation, key and scope on every retry; nothing runs again', async () => {
    effects = 0;
    const key = `dmg-typed-${kind}-000001`;
    await charge(key);
    await damageResult(kind, t, key, TRUNCATED);
    for (let i = 0; i < 2; i++) {
      const err = await charge(key).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(IdempotencyRecordCorruptError);
      const e = err as IdempotencyRecordCorruptError;
      expect([e.code, e.operation, e.key, e.scope, e.text]).toEqual([
        'idempotency_record_corrupt',
        OP,
        key,
        SCOPE,
        TRUNCATED,
      ]);
      expect(e.message).toMatch(/does not parse.*idemgen reconcile/);
    }
    expect(effects).toBe(1);
  });

  it('reconcile lists it; --as completed overwrites the result, which retries then replay', async () => {
    effects = 0;
    const key = `dmg-complete-${kind}-0001`;
    await charge(key);
    await damageResult(kind, t, key, TRUNCATED);
    const listed = (await corruptReport(t.store)).filter((c) => c.key === key);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      scope: SCOPE,
      key,
      text: TRUNCATED,
      row: { operation: OP, status: 'completed' },
    });
    expect(listed[0]?.reason).toMatch(/SyntaxError/);
    const out = await resolveUnknown(t.store, {
      key,
      scope: SCOPE,
      as: 'completed',
      result: { id: 'ch_1', amount: 12 },
      by: 'ops',
      reason: 'read back from the API',
    });
    expect(out).toMatchObject({ resolved: true, repaired: true, row: { status: 'completed' } });
    expect((await corruptReport(t.store)).filter((c) => c.key === key)).toEqual([]);
    const again = await charge(key);
    expect(again).toMatchObject({ wasReplay: true, result: { id: 'ch_1', amount: 12 } });
    expect(effects).toBe(1);
  });

  it('idemgen reconcile lists the unreadable row and --resolve --as completed repairs it', async () => {
    effects = 0;
    const key = `dmg-cli-${kind}-00000001`;
    await charge(key);
    await damageResult(kind, t, key, TRUNCATED);
    const listed = await runCli(['reconcile', '--store', storeUrl(kind, t)], process.cwd());
    expect(listed.code).toBe(1);
    expect(listed.stdout).toMatch(/row\(s\) are unreadable/);
    expect(listed.stdout).toContain(`${OP}  status=completed  key=${key} scope=${SCOPE}`);
    const resolve = ['--resolve', key, '--scope', SCOPE, '--as', 'completed', '--reason', 'checked the API'];
    const fixed = await runCli(
      ['reconcile', '--store', storeUrl(kind, t), ...resolve, '--result', '{"id":"ch_1"}', '--by', 'ops'],
      process.cwd(),
    );
    expect(fixed.stderr).toBe('');
    expect(fixed.stdout).toMatch(new RegExp(`Repaired the unreadable row ${key} as completed by ops`));
    expect(await charge(key)).toMatchObject({ wasReplay: true, result: { id: 'ch_1' } });
    expect(effects).toBe(1);
  });

  it('--as not-executed frees the key: the next call runs once, and the decision is kept in the row', async () => {
    effects = 0;
    const key = `dmg-free-${kind}-000001`;
    await charge(key);
    await damageResult(kind, t, key, '[1,2');
    const out = await resolveUnknown(t.store, {
      key,
      scope: SCOPE,
      as: 'not-executed',
      by: 'ops',
      reason: 'the API has no such charge',
      now: Date.now() + 1,
    });
    expect(out).toMatchObject({ resolved: true, repaired: true });
    const row = await t.store.get({ scope: SCOPE, key });
    expect(JSON.parse(row?.resolution as string)).toMatchObject({ as: 'not-executed', by: 'ops' });
    const again = await charge(key);
    expect(again.wasReplay).toBe(false);
    expect(effects).toBe(2);
  });
});

describe('a Redis row that is not JSON at all', () => {
  let t: TestStore;
  let idem: Idempotency;
  beforeAll(async () => {
    t = await makeStore('redis', inject('pgUrl'), 'damage_row');
    idem = createIdempotency({ store: t.store, telemetry: false });
  });
  afterAll(() => t.cleanup());

  it('is typed on claim, listed without a row, and can only be freed (deleted), not completed', async () => {
    let effects = 0;
    const key = 'dmg-redis-row-000001';
    const run = () =>
      idem.run({ operation: OP, key, scope: SCOPE, args: {}, mechanism: 'fail-closed' }, async () => ++effects);
    await run();
    const l = t.location;
    const rowKey = `${l.prefix}:{${l.table}}:row:${SCOPE.length}:${SCOPE}:${key}`;
    await withRedis(l.url as string, async (c) => {
      const text = (await c.sendCommand(['GET', rowKey])) as string;
      await c.sendCommand(['SET', rowKey, text.slice(0, 40)]);
    });
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyRecordCorruptError);
    expect(err).toMatchObject({ key, scope: SCOPE, operation: OP });
    const [listed] = (await corruptReport(t.store)).filter((c) => c.key === key);
    expect(listed).toMatchObject({ scope: SCOPE, key });
    expect(listed?.row).toBeUndefined();
    const completed = await resolveUnknown(t.store, { key, scope: SCOPE, as: 'completed', by: 'ops', reason: 'x' });
    expect(completed).toEqual({ resolved: false, why: 'unreadable' });
    const freed = await resolveUnknown(t.store, { key, scope: SCOPE, as: 'failed', by: 'ops', reason: 'x' });
    expect(freed).toMatchObject({ resolved: true, repaired: true, row: undefined });
    expect((await run()).wasReplay).toBe(false);
    expect(effects).toBe(2);
  });
});

describe.each(STORE_KINDS)('what callers are told on %s', (kind) => {
  let t: TestStore;
  beforeAll(async () => {
    // The hint is checked against an injected clock: the store must judge the lease by it (`clock: 'caller'`).
    t = await makeStore(kind, inject('pgUrl'), 'told', { clock: 'caller' });
  });
  afterAll(() => t.cleanup());

  it('the in-flight error carries the lease end as retryAfterMs and retryAt', async () => {
    let now = 1_700_000_000_000;
    const idem = createIdempotency({ store: t.store, telemetry: false, leaseMs: 20_000, waitMs: 0, now: () => now });
    const req = {
      operation: OP,
      key: `inflight-${kind}-00001`,
      scope: SCOPE,
      args: {},
      mechanism: 'dedup-table' as const,
    };
    let release!: () => void;
    const first = idem.run(req, () => new Promise<string>((r) => (release = () => r('done'))));
    await new Promise((r) => setTimeout(r, 100));
    now += 5_000;
    const err = await idem.run(req, async () => 'second').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyInFlightError);
    const e = err as IdempotencyInFlightError;
    expect(e.retryAfterMs).toBe(15_000);
    expect(e.retryAt?.getTime()).toBe(now + 15_000);
    release();
    expect((await first).result).toBe('done');
  });

  it('a result the store cannot keep is flagged to the first caller; the retry gets the typed error, not a re-run', async () => {
    let effects = 0;
    const idem = createIdempotency({ store: t.store, telemetry: false, maxResultBytes: 64 });
    const run = (key: string, result: () => unknown) =>
      idem.run({ operation: OP, key, scope: SCOPE, args: {}, mechanism: 'fail-closed' }, async () => {
        effects++;
        return result();
      });
    const fine = await run(`keep-${kind}-0000001`, () => ({ ok: true }));
    expect(fine.replayable).toBeUndefined();
    expect((await run(`keep-${kind}-0000001`, () => 0)).result).toEqual({ ok: true });

    const big = await run(`big-${kind}-00000001`, () => ({ blob: 'x'.repeat(200) }));
    expect(big).toMatchObject({ replayable: false, wasReplay: false, result: { blob: 'x'.repeat(200) } });
    await expect(run(`big-${kind}-00000001`, () => 0)).rejects.toBeInstanceOf(IdempotencyResultTooLargeError);

    const cyclic: Record<string, unknown> = { id: 1 };
    cyclic.self = cyclic;
    const odd = await run(`odd-${kind}-00000001`, () => ({ n: 10n }));
    expect(odd.replayable).toBe(false);
    const loop = await run(`loop-${kind}-0000001`, () => cyclic);
    expect(loop.replayable).toBe(false);
    await expect(run(`odd-${kind}-00000001`, () => 0)).rejects.toBeInstanceOf(IdempotencyResultUnencodableError);
    await expect(run(`loop-${kind}-0000001`, () => 0)).rejects.toBeInstanceOf(IdempotencyResultUnencodableError);
    expect(effects).toBe(4);
  });
});

describe('the memory store (no driver to damage a row: a damaged text written through the store API)', () => {
  it('is typed on replay, listed and repaired like the others', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, telemetry: false });
    const key = 'dmg-memory-00000001';
    const now = Date.now();
    const claim = { scope: SCOPE, key, operation: OP, argsHash: hashArgs({}), mechanism: 'fail-closed' as const };
    await store.claim({ ...claim, leaseToken: 't1', now, leaseMs: 1_000, ttlMs: 60_000 });
    await store.complete({ scope: SCOPE, key, leaseToken: 't1', result: TRUNCATED, now });
    let effects = 0;
    const run = () =>
      idem.run({ operation: OP, key, scope: SCOPE, args: {}, mechanism: 'fail-closed' }, async () => ++effects);
    await expect(run()).rejects.toBeInstanceOf(IdempotencyRecordCorruptError);
    expect((await corruptReport(store)).map((c) => [c.key, c.text])).toEqual([[key, TRUNCATED]]);
    const out = await resolveUnknown(store, { key, scope: SCOPE, as: 'completed', result: 7, by: 'ops', reason: 'x' });
    expect(out).toMatchObject({ resolved: true, repaired: true });
    expect(await run()).toMatchObject({ wasReplay: true, result: 7 });
    expect(effects).toBe(0);
  });
});
