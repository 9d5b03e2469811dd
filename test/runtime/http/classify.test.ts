/**
 * What an HTTP answer means for retries (M4, S4, S5), against a real node:http fault server: an OP-1
 * key must be on the wire, a 409/422 is about the key only when the server says so, and an OP-3
 * takeover's 412 is our own earlier write.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpCaller,
  createIdempotency,
  createMemoryStore,
  HttpStatusError,
  IdempotencyConflictError,
} from '../../../packages/runtime/src/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';

const KEY = (n: string) => `cls-${n}-0123456789abcdef`;
const fast = { attempts: 4, baseDelayMs: 5, maxDelayMs: 10 };
const carrier = { in: 'header', name: 'Idempotency-Key' } as const;

describe('HTTP answer classification', () => {
  let server: FaultServer;
  afterEach(() => server?.close());

  it('OP-1 with a key but no carrier is refused up front: no request leaves', async () => {
    server = await startFaultServer();
    const caller = createHttpCaller({ baseUrl: server.url, retry: fast });
    await expect(
      caller.send({ method: 'POST', path: '/c', bodyType: 'none', key: KEY('nocarrier'), mechanism: 'native-key' }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(server.requests).toHaveLength(0);
  });

  it('a business 409 ("already exists") is a definite HttpStatusError, not retried as "in progress"', async () => {
    server = await startFaultServer({ keyCarrier: carrier });
    server.inject({ kind: 'reject', status: 409, body: { error: 'a user with this email already exists' } });
    const caller = createHttpCaller({ baseUrl: server.url, retry: fast });
    const err = await caller
      .send({
        method: 'POST',
        path: '/users',
        bodyType: 'json',
        body: {},
        key: KEY('biz409'),
        carrier,
        mechanism: 'native-key',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err).toMatchObject({ status: 409, definiteFailure: true });
    expect(server.requests).toHaveLength(1);
  });

  it('a 409 with Retry-After or the IETF "request is outstanding" wording is retried with the same key', async () => {
    server = await startFaultServer({ keyCarrier: carrier });
    server.inject(
      { kind: 'reject', status: 409, headers: { 'retry-after': '0' }, body: { error: 'busy' } },
      { kind: 'reject', status: 409, body: { title: 'A request is outstanding for this Idempotency-Key' } },
    );
    const caller = createHttpCaller({ baseUrl: server.url, retry: fast });
    const res = await caller.send({
      method: 'POST',
      path: '/book',
      bodyType: 'json',
      body: {},
      key: KEY('busy409'),
      carrier,
      mechanism: 'native-key',
    });
    expect(res.status).toBe(200);
    expect(server.requests.map((r) => r.key)).toEqual([KEY('busy409'), KEY('busy409'), KEY('busy409')]);
  });

  it('a 422 is a key conflict only when the body names idempotency; "does not match" alone is a validation error', async () => {
    server = await startFaultServer();
    server.inject(
      { kind: 'reject', status: 422, body: { error: 'password confirmation does not match' } },
      { kind: 'reject', status: 422, body: { error: 'Idempotency-Key reused with a different payload' } },
    );
    const caller = createHttpCaller({ baseUrl: server.url, retry: fast });
    const req = { method: 'POST', path: '/u', bodyType: 'json' as const, body: {}, mechanism: 'fail-closed' as const };
    const validation = await caller.send(req).catch((e: unknown) => e);
    expect(validation).toBeInstanceOf(HttpStatusError);
    expect(validation).toMatchObject({ status: 422 });
    await expect(caller.send(req)).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it('OP-3 PUT If-None-Match: * — a 412 on the takeover after an ambiguous first PUT completes the run', async () => {
    server = await startFaultServer();
    server.inject({ kind: 'reset' }, { kind: 'reject', status: 412, body: { error: 'precondition failed' } });
    const caller = createHttpCaller({ baseUrl: server.url, retry: fast });
    const idem = createIdempotency({ store: createMemoryStore() });
    const req = {
      operation: 'PUT /blobs/{sha}',
      key: KEY('op3'),
      args: { sha: 'abc' },
      mechanism: 'content-address' as const,
    };
    const put = (ctx: Parameters<Parameters<typeof idem.run>[1]>[0]) =>
      caller.send({
        method: 'PUT',
        path: '/blobs/abc',
        bodyType: 'json',
        body: { data: 1 },
        headers: { 'If-None-Match': '*' },
        mechanism: 'content-address',
        run: ctx,
      });
    await expect(idem.run(req, put)).rejects.toThrow(/outcome unknown/);
    const done = await idem.run(req, put);
    expect(done).toMatchObject({ wasReplay: false, result: { status: 412, alreadyStored: true, body: null } });
    expect(await idem.run(req, put)).toMatchObject({ wasReplay: true });
    expect(server.effects).toBe(1);
    expect(server.requests).toHaveLength(2);
  });
});
