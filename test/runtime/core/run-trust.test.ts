/**
 * M2: "nothing executed" is trusted only when the HTTP caller produced it for the single request of
 * this run. A callback with two requests, or a nested run's error, is ambiguous: fail closed, so a
 * retry never repeats the first, already committed request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHttpCaller,
  createIdempotency,
  createMemoryStore,
  HttpStatusError,
  IdempotencyConflictError,
  IdempotencyOutcomeUnknownError,
  runSaga,
} from '../../../packages/runtime/src/index.js';
import { refusedUrl, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';

const KEY = (n: string) => `trust-${n}-0123456789abcdef`;

describe('which failures may release the dedup row', () => {
  let server: FaultServer;
  let refused: string;
  beforeAll(async () => {
    server = await startFaultServer();
    refused = await refusedUrl();
  });
  afterAll(() => server.close());

  it('POST A commits, POST B is refused: fail closed, and a retry never repeats A', async () => {
    const a = createHttpCaller({ baseUrl: server.url });
    const b = createHttpCaller({ baseUrl: refused });
    const store = createMemoryStore();
    const idem = createIdempotency({ store });
    const req = { operation: 'tool:order', key: KEY('two'), args: { sku: 1 }, mechanism: 'fail-closed' as const };
    const before = server.effects;
    const fn = async (ctx: Parameters<Parameters<typeof idem.run>[1]>[0]) => {
      await a.send({
        method: 'POST',
        path: '/a',
        bodyType: 'json',
        body: { sku: 1 },
        mechanism: 'fail-closed',
        run: ctx,
      });
      return b.send({ method: 'POST', path: '/b', bodyType: 'none', mechanism: 'fail-closed', run: ctx });
    };
    await expect(idem.run(req, fn)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    await expect(idem.run(req, fn)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(server.effects - before).toBe(1);
    expect(await store.get({ scope: '', key: KEY('two') })).toMatchObject({ status: 'pending' });
  });

  it('a single request answered 400 releases the row (nothing executed); the retry runs', async () => {
    server.inject({ kind: 'reject', status: 400, body: { error: 'bad amount' } });
    const caller = createHttpCaller({ baseUrl: server.url });
    const store = createMemoryStore();
    const idem = createIdempotency({ store });
    const req = { operation: 'tool:pay', key: KEY('four'), args: { amount: 1 }, mechanism: 'fail-closed' as const };
    const fn = (ctx: Parameters<Parameters<typeof idem.run>[1]>[0]) =>
      caller.send({ method: 'POST', path: '/pay', bodyType: 'json', body: {}, mechanism: 'fail-closed', run: ctx });
    await expect(idem.run(req, fn)).rejects.toBeInstanceOf(HttpStatusError);
    expect(await store.get({ scope: '', key: KEY('four') })).toBeUndefined();
    expect((await idem.run(req, fn)).result.status).toBe(200);
  });

  it("a nested run's IdempotencyConflictError after an effect does not release the outer row", async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store });
    const inner = { operation: 'tool:inner', key: KEY('inner'), args: { v: 1 }, mechanism: 'fail-closed' as const };
    await idem.run(inner, async () => 'first');
    let effects = 0;
    const outer = { operation: 'tool:outer', key: KEY('outer'), args: {}, mechanism: 'fail-closed' as const };
    const fn = async () => {
      effects++; // an effect of the outer call
      return idem.run({ ...inner, args: { v: 2 } }, async () => 'never');
    };
    const err = await idem.run(outer, fn).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect((err as Error).cause).toBeInstanceOf(IdempotencyConflictError);
    await expect(idem.run(outer, fn)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(effects).toBe(1);
  });

  it('saga: a refused request trusted only with the run context; a second request makes it ambiguous', async () => {
    const b = createHttpCaller({ baseUrl: refused });
    const a = createHttpCaller({ baseUrl: server.url });
    const store = createMemoryStore();
    const single = { operation: 'POST /x', key: KEY('saga-one'), args: {} };
    await expect(
      runSaga(store, single, {
        call: async (ctx) => ({
          externalId: 'x',
          result: await b.send({ method: 'POST', path: '/x', bodyType: 'none', mechanism: 'saga', run: ctx }),
        }),
      }),
    ).rejects.toThrow(/not sent/);
    expect(await store.saga().get({ scope: '', key: KEY('saga-one') })).toBeUndefined();
    const double = { operation: 'POST /x', key: KEY('saga-two'), args: {} };
    await expect(
      runSaga(store, double, {
        call: async (ctx) => {
          await a.send({ method: 'POST', path: '/a', bodyType: 'none', mechanism: 'saga', run: ctx });
          return {
            externalId: 'x',
            result: await b.send({ method: 'POST', path: '/x', bodyType: 'none', mechanism: 'saga', run: ctx }),
          };
        },
      }),
    ).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(await store.saga().get({ scope: '', key: KEY('saga-two') })).toMatchObject({ status: 'pending' });
  });
});
