/**
 * The HTTP layer against a real node:http server that commits the side effect and then fails
 * (DESIGN §7). With a native key the effect happens exactly once and the caller finally gets the
 * original result; without one it happens at most once and the caller is told the outcome is unknown.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createHttpCaller,
  createIdempotency,
  createMemoryStore,
  HttpStatusError,
  IdempotencyConflictError,
  IdempotencyNotSentError,
  IdempotencyOutcomeUnknownError,
  type HttpRequest,
} from '../../../packages/runtime/src/index.js';
import { encodeForm } from '../../../packages/runtime/src/support.js';
import { parseRetryAfter } from '../../../packages/runtime/src/http/retry.js';
import { refusedUrl, startFaultServer, type Fault, type FaultServer } from '../../helpers/fault-server.js';

const KEY = (n: string) => `http-${n}-0123456789abcdef`;
const FAULTS: [string, Fault][] = [
  ['stalls past the client timeout', { kind: 'stall', ms: 2_000 }],
  ['resets the connection', { kind: 'reset' }],
  ['answers 503', { kind: 'status', status: 503 }],
];
const fast = { attempts: 5, baseDelayMs: 5, maxDelayMs: 20 };

describe('transport retry with a native key (OP-1)', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
  });
  afterAll(() => server.close());

  it.each(FAULTS)(
    'server commits then %s → exactly one effect, the caller gets the original result',
    async (_, fault) => {
      const before = server.effects;
      server.inject(fault);
      const caller = createHttpCaller({ baseUrl: server.url, timeoutMs: 300, retry: fast });
      const idem = createIdempotency({ store: createMemoryStore() });
      const key = KEY(`native-${fault.kind}`);
      const out = await idem.run(
        { operation: 'POST /v1/charges', key, args: { amount: 100 }, mechanism: 'native-key' },
        (ctx) =>
          caller.send({
            method: 'POST',
            path: '/v1/charges',
            body: { amount: 100 },
            bodyType: 'json',
            key: ctx.key,
            carrier: { in: 'header', name: 'Idempotency-Key' },
            mechanism: 'native-key',
          }),
      );
      expect(server.effects - before).toBe(1);
      expect(server.effectsFor(key)).toBe(1);
      const attempts = server.requests.filter((r) => r.key === key);
      expect(attempts).toHaveLength(2); // the failed attempt, then the replay
      expect(out.result.status).toBe(200);
      expect(out.result.headers['idempotent-replayed']).toBe('true');
      expect(out.result.body).toMatchObject({ id: `obj_${before + 1}`, effect: before + 1 });
    },
  );
});

describe('transport failure without a native key (fail-closed through the store)', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(() => server.close());

  it.each(FAULTS)(
    'server commits then %s → at most one effect and IdempotencyOutcomeUnknownError, also on retry',
    async (_, fault) => {
      const before = server.effects;
      server.inject(fault);
      const caller = createHttpCaller({ baseUrl: server.url, timeoutMs: 300, retry: fast });
      const idem = createIdempotency({ store: createMemoryStore() });
      const req = {
        operation: 'POST /sms',
        key: KEY(`closed-${fault.kind}`),
        args: { to: '+1' },
        mechanism: 'fail-closed' as const,
      };
      const call = () =>
        caller.send({ method: 'POST', path: '/sms', body: { to: '+1' }, bodyType: 'json', mechanism: 'fail-closed' });
      await expect(idem.run(req, call)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
      await expect(idem.run(req, call)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
      expect(server.effects - before).toBe(1);
    },
  );
});

describe('createHttpCaller', () => {
  let server: FaultServer;
  afterEach(() => server?.close());

  it.each([
    ['header', { in: 'header', name: 'Idempotency-Key' }, 'json'],
    ['body', { in: 'body', name: 'idempotency_key' }, 'json'],
    ['form', { in: 'form', name: 'idempotency_key' }, 'form'],
    ['query', { in: 'query', name: 'client_token' }, 'json'],
  ] as const)('carries the same key on every attempt in the %s carrier', async (_, carrier, bodyType) => {
    server = await startFaultServer({ keyCarrier: carrier });
    server.inject({ kind: 'reject', status: 502 }, { kind: 'reset' }); // refused, then committed-and-reset, then replayed
    const caller = createHttpCaller({ baseUrl: server.url, timeoutMs: 500, retry: fast });
    const key = KEY(`carrier-${carrier.in}`);
    const res = await caller.send({
      method: 'POST',
      path: '/things',
      body: { name: 'x', meta: { tags: ['a'] } },
      bodyType,
      key,
      carrier,
      mechanism: 'native-key',
    });
    expect(res.status).toBe(200);
    expect(server.requests.map((r) => r.key)).toEqual([key, key, key]);
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1); // byte-identical retries
    expect(server.effects).toBe(1);
  });

  it('encodes form bodies Stripe-style', () => {
    expect(
      decodeURIComponent(
        encodeForm({
          amount: 100,
          metadata: { order: 'o1' },
          items: [{ price: 'p1', qty: 2 }],
          skip: undefined,
          clear: null,
        }),
      ),
    ).toBe('amount=100&metadata[order]=o1&items[0][price]=p1&items[0][qty]=2&clear=');
  });

  it('honours Retry-After (seconds) on 429 for native-key calls', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    server.inject({ kind: 'reject', status: 429, headers: { 'retry-after': '1' } });
    const caller = createHttpCaller({ baseUrl: server.url, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    const started = performance.now();
    const res = await caller.send({
      method: 'POST',
      path: '/x',
      bodyType: 'none',
      key: KEY('retry-after'),
      carrier: { in: 'header', name: 'Idempotency-Key' },
      mechanism: 'native-key',
    });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950); // jitter alone would be ≤ 2 ms
  });

  it('parses Retry-After as delay-seconds and HTTP-date', () => {
    const now = Date.parse('2026-05-19T10:11:12Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Tue, 19 May 2026 10:11:42 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 19 May 2026 10:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    // Only delta-seconds integers and IMF-fixdate (RFC 9110 §10.2.3, §5.6.7); no guessing.
    for (const odd of [
      '1.5',
      '-1',
      '2026-05-19T10:11:42Z',
      'Tuesday, 19-May-26 10:11:42 GMT',
      '19 May 2026 10:11:42',
    ]) {
      expect(parseRetryAfter(odd, now)).toBeUndefined();
    }
  });

  it('a 422 "key reused with another payload" is never retried and surfaces as IdempotencyConflictError', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const caller = createHttpCaller({ baseUrl: server.url, retry: fast });
    const base: HttpRequest = {
      method: 'POST',
      path: '/charges',
      bodyType: 'json',
      key: KEY('mismatch'),
      carrier: { in: 'header', name: 'Idempotency-Key' },
      mechanism: 'native-key',
    };
    await caller.send({ ...base, body: { amount: 1 } });
    await expect(caller.send({ ...base, body: { amount: 2 } })).rejects.toBeInstanceOf(IdempotencyConflictError);
    expect(server.requests).toHaveLength(2);
    expect(server.effects).toBe(1);
  });

  it('409 "in progress" is retried with the same key until the first request finishes', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    server.inject({ kind: 'delay', ms: 150 });
    const caller = createHttpCaller({
      baseUrl: server.url,
      retry: { attempts: 10, baseDelayMs: 40, maxDelayMs: 80 },
      random: () => 1,
    });
    const req: HttpRequest = {
      method: 'POST',
      path: '/book',
      bodyType: 'json',
      body: { seat: 1 },
      key: KEY('inprogress'),
      carrier: { in: 'header', name: 'Idempotency-Key' },
      mechanism: 'native-key',
    };
    const [a, b] = await Promise.all([
      caller.send(req),
      new Promise((r) => setTimeout(r, 20)).then(() => caller.send(req)),
    ]);
    expect(a.body).toEqual(b.body);
    expect(server.requests.some((r, i) => i > 0 && r.key === req.key)).toBe(true);
    expect(server.effects).toBe(1);
  });

  it('never retries a 5xx for fail-closed calls; a 4xx is a definite failure (nothing executed)', async () => {
    server = await startFaultServer();
    server.inject({ kind: 'status', status: 500 }, { kind: 'reject', status: 400, body: { error: 'bad amount' } });
    const caller = createHttpCaller({ baseUrl: server.url, retry: fast });
    const req: HttpRequest = { method: 'POST', path: '/x', bodyType: 'json', body: {}, mechanism: 'fail-closed' };
    const e5 = await caller.send(req).catch((e: unknown) => e);
    expect(e5).toMatchObject({ status: 500, definiteFailure: false });
    const e4 = await caller.send(req).catch((e: unknown) => e);
    expect(e4).toBeInstanceOf(HttpStatusError);
    expect(e4).toMatchObject({ status: 400, definiteFailure: true, body: { error: 'bad amount' } });
    expect(server.requests).toHaveLength(2);
  });

  it('connection refused is classified not-sent; the state machine releases the row so a retry may run', async () => {
    const caller = createHttpCaller({ baseUrl: await refusedUrl(), retry: fast });
    const store = createMemoryStore();
    const idem = createIdempotency({ store });
    const req = { operation: 'POST /x', key: KEY('refused'), args: {}, mechanism: 'fail-closed' as const };
    const err = await idem
      .run(req, (ctx) =>
        caller.send({ method: 'POST', path: '/x', bodyType: 'none', mechanism: 'fail-closed', run: ctx }),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyNotSentError);
    expect(await store.get({ scope: '', key: KEY('refused') })).toBeUndefined();
    // Without `run: ctx` the state machine cannot tell which request failed: fail closed.
    const blind = { ...req, key: KEY('refused-blind') };
    await expect(
      idem.run(blind, () => caller.send({ method: 'POST', path: '/x', bodyType: 'none', mechanism: 'fail-closed' })),
    ).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(await store.get({ scope: '', key: KEY('refused-blind') })).toMatchObject({ status: 'pending' });
  });
});
