/**
 * M3 / S7: what the caller learns when the effect happened but recording it fails — a result with no
 * JSON text, a throwing `redact`, or a store that went away (a real SQLite file closed mid-call).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createIdempotency,
  IdempotencyOutcomeUnknownError,
  IdempotencyResultUnencodableError,
  type DedupStore,
} from '../../../packages/runtime/src/index.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { makeStore, STORE_KINDS, type TestStore } from '../store/stores.js';

const KEY = (n: string) => `settle-${n}-0123456789abcdef`;

describe.each(STORE_KINDS)('unencodable results on %s', (kind) => {
  let t: TestStore;
  let store: DedupStore;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'settle');
    store = t.store;
  });
  afterAll(() => t.cleanup());

  it.each([
    ['a BigInt', () => ({ amount: 10n })],
    [
      'a cycle',
      () => {
        const o: Record<string, unknown> = { id: 'c' };
        o.self = o;
        return o;
      },
    ],
  ])('%s: the live caller gets the result, the row completes, a replay throws a typed error', async (name, make) => {
    const idem = createIdempotency({ store });
    const req = {
      operation: 'tool:mint',
      key: KEY(name.replace(/\W/g, '')),
      args: {},
      mechanism: 'dedup-table' as const,
    };
    let calls = 0;
    let made: unknown;
    const live = await idem.run(req, async () => {
      calls++;
      const result = make();
      made = result;
      return result;
    });
    expect(live.wasReplay).toBe(false);
    expect(live.result).toBe(made);
    expect(await store.get({ scope: '', key: req.key })).toMatchObject({ status: 'completed' });
    await expect(
      idem.run(req, async () => {
        calls++;
        return make();
      }),
    ).rejects.toBeInstanceOf(IdempotencyResultUnencodableError);
    expect(calls).toBe(1);
  });

  it('a throwing redact stores the marker too; the caller still gets its result', async () => {
    const idem = createIdempotency({
      store,
      redact: () => {
        throw new Error('redactor broke');
      },
    });
    const req = { operation: 'tool:pay', key: KEY('redact'), args: {}, mechanism: 'dedup-table' as const };
    expect((await idem.run(req, async () => ({ ok: true }))).result).toEqual({ ok: true });
    const err = await idem.run(req, async () => ({ ok: false })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyResultUnencodableError);
    expect((err as Error).message).toContain('redactor broke');
  });
});

describe('the store fails after the effect (a SQLite file closed mid-call)', () => {
  let t: TestStore;
  beforeAll(async () => {
    t = await makeStore('sqlite', inject('pgUrl'), 'settle_closed');
  });
  afterAll(() => t.cleanup());

  const reopen = () => createSqliteStore({ filename: t.location.filename!, table: t.location.table });

  it('store.complete throws → IdempotencyOutcomeUnknownError carrying the live result and the cause', async () => {
    const store = reopen();
    const idem = createIdempotency({ store });
    const err = await idem
      .run({ operation: 'tool:send', key: KEY('complete'), args: {}, mechanism: 'fail-closed' }, async () => {
        await store.close();
        return { id: 'msg_1' };
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(err).toMatchObject({ result: { id: 'msg_1' } });
    expect(String((err as Error).cause)).toMatch(/not open/i);
    expect(await t.store.get({ scope: '', key: KEY('complete') })).toMatchObject({ status: 'pending' });
  });

  it("markUnknown throws → IdempotencyOutcomeUnknownError whose cause is the call's own error", async () => {
    const store = reopen();
    const idem = createIdempotency({ store });
    const callErr = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const err = await idem
      .run({ operation: 'tool:send', key: KEY('unknown'), args: {}, mechanism: 'native-key' }, async () => {
        await store.close();
        throw callErr;
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect((err as Error).cause).toBe(callErr);
    expect((err as Error).message).toMatch(/not open/i);
  });
});
