/**
 * Raw and binary bodies through the HTTP layer against a real node:http server: uploads arrive
 * byte-identical with the right content type, responses are read by media type (JSON, text, Blob), a
 * stream is buffered once when the call may be retried (OP-1), and binary results survive the dedup store
 * (SQLite and PostgreSQL, tables from the generated migration) byte-identical on replay.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createHttpCaller,
  createIdempotency,
  IdempotencyResultTooLargeError,
  InvalidArgumentsError,
  type HttpRequest,
} from '../../../packages/runtime/src/index.js';
import { canonicalJson, digestBlobs, hashArgs } from '../../../packages/runtime/src/support.js';
import { ALL_BYTES, bytesRoutes } from '../../emit/client/helpers/bytes-routes.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { makeStore, type TestStore } from '../store/stores.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer({ respond: bytesRoutes });
});
afterAll(() => server.close());

const bytesOfBlob = async (b: unknown): Promise<Uint8Array> => new Uint8Array(await (b as Blob).arrayBuffer());
const put = (body: unknown, extra: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'PUT',
  path: '/echo',
  body,
  bodyType: 'binary',
  mechanism: 'none',
  ...extra,
});

describe('raw request bodies', () => {
  const caller = () => createHttpCaller({ baseUrl: server.url, timeoutMs: 2000 });

  it.each([
    ['Uint8Array', () => ALL_BYTES],
    ['ArrayBuffer', () => ALL_BYTES.slice().buffer],
    ['Buffer', () => Buffer.from(ALL_BYTES)],
    [
      'a view into a larger buffer',
      () => new Uint8Array(Uint8Array.from([7, 7, ...ALL_BYTES, 7]).buffer, 2, ALL_BYTES.length),
    ],
    ['Blob', () => new Blob([ALL_BYTES])],
  ])('%s: the server receives the exact bytes and the Blob answer is byte-identical', async (_, make) => {
    const res = await caller().send(put(make(), { contentType: 'application/octet-stream' }));
    const got = server.requests.at(-1)!;
    expect(new Uint8Array(got.bytes)).toEqual(ALL_BYTES);
    expect(got.contentType).toBe('application/octet-stream');
    expect(res.body).toBeInstanceOf(Blob);
    expect(await bytesOfBlob(res.body)).toEqual(ALL_BYTES);
    expect((res.body as Blob).type).toBe('application/octet-stream');
  });

  it('content type: the spec media type wins; a wildcard defers to the Blob type, else octet-stream', async () => {
    const png = new Blob([ALL_BYTES], { type: 'image/png' });
    await caller().send(put(png, { contentType: 'image/*' }));
    expect(server.requests.at(-1)!.contentType).toBe('image/png');
    await caller().send(put(ALL_BYTES, { contentType: '*/*' }));
    expect(server.requests.at(-1)!.contentType).toBe('application/octet-stream');
    await caller().send(put(png, { contentType: 'application/x-tar' }));
    expect(server.requests.at(-1)!.contentType).toBe('application/x-tar');
    await caller().send(put('a,b\n1,2\n', { bodyType: 'text', contentType: 'text/csv' }));
    expect(server.requests.at(-1)).toMatchObject({ contentType: 'text/csv', bytes: Buffer.from('a,b\n1,2\n') });
  });

  it('a single-attempt call streams a ReadableStream as it is', async () => {
    const stream = new Blob([ALL_BYTES]).stream();
    const res = await caller().send(put(stream));
    expect(new Uint8Array(server.requests.at(-1)!.bytes)).toEqual(ALL_BYTES);
    expect(await bytesOfBlob(res.body)).toEqual(ALL_BYTES);
  });

  it('OP-1: a stream is buffered once, so the retry after commit-then-reset re-sends the same bytes with the same key', async () => {
    const before = server.requests.length;
    server.inject({ kind: 'reset' });
    const c = createHttpCaller({
      baseUrl: server.url,
      timeoutMs: 2000,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    });
    const key = 'stream-key-0123456789abcdef';
    const res = await c.send(
      put(new Blob([ALL_BYTES]).stream(), {
        mechanism: 'native-key',
        key,
        carrier: { in: 'header', name: 'Idempotency-Key' },
      }),
    );
    const attempts = server.requests.slice(before);
    expect(attempts).toHaveLength(2);
    for (const a of attempts) {
      expect(a.headers['idempotency-key']).toBe(key);
      expect(new Uint8Array(a.bytes)).toEqual(ALL_BYTES);
    }
    expect(await bytesOfBlob(res.body)).toEqual(ALL_BYTES);
  });

  it('refuses a body key carrier on a raw body and a non-binary value as a binary body', async () => {
    const keyed = put(ALL_BYTES, {
      mechanism: 'native-key',
      key: 'k'.repeat(24),
      carrier: { in: 'body', name: 'idempotency_key' },
    });
    await expect(caller().send(keyed)).rejects.toThrow(/cannot ride in field idempotency_key of a raw body/);
    // Refused before sending: "not sent" (the dedup row is released), with the encoder's TypeError as the cause.
    const err = await caller()
      .send(put({ not: 'bytes' }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentsError);
    expect((err as Error).cause).toBeInstanceOf(TypeError);
  });
});

describe('responses by media type', () => {
  const get = (path: string, responseType?: HttpRequest['responseType']) =>
    createHttpCaller({ baseUrl: server.url }).send({
      method: 'GET',
      path,
      bodyType: 'none',
      mechanism: 'none',
      ...(responseType ? { responseType } : {}),
    });

  it('JSON (any +json) is parsed, text/* is a string, image/png and application/pdf are Blobs with their type', async () => {
    expect((await get('/json')).body).toEqual({ ok: true, n: server.effects });
    expect((await get('/notes/x')).body).toBe('<p></p>');
    const pdf = (await get('/pdf')).body as Blob;
    expect(pdf).toBeInstanceOf(Blob);
    expect(pdf.type).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer())).toEqual(Buffer.from('%PDF-1.7\n\u00ff'));
  });

  it('a pinned responseType holds whatever the label (generated clients pin what their types promise)', async () => {
    expect((await get('/unlabeled')).body).toBe('plain words'); // unlabeled → text
    const blob = (await get('/unlabeled', 'blob')).body;
    expect(blob).toBeInstanceOf(Blob);
    expect(Buffer.from(await (blob as Blob).arrayBuffer()).toString()).toBe('plain words');
    expect((await get('/pdf', 'text')).body).toBe('%PDF-1.7\n\u00ff');
  });
});

describe('binary arguments are hashed by content', () => {
  it('different bytes hash differently, equal bytes alike; an undigested Blob is refused', async () => {
    const a = { body: new Blob([Uint8Array.of(1, 2, 3)]) };
    const b = { body: new Blob([Uint8Array.of(1, 2, 4)]) };
    expect(() => hashArgs(a)).toThrow(/digestBlobs/);
    const sameAsA = { body: new Blob([Uint8Array.of(1, 2, 3)]) };
    await digestBlobs([a, b, sameAsA]);
    expect(hashArgs(a)).not.toBe(hashArgs(b));
    expect(hashArgs(sameAsA)).toBe(hashArgs(a));
    expect(hashArgs({ body: Uint8Array.of(1, 2, 3) })).toBe(hashArgs({ body: Buffer.from([1, 2, 3]) }));
    expect(hashArgs({ body: Uint8Array.of(1, 2, 3) })).not.toBe(hashArgs({ body: Uint8Array.of(3, 2, 1) }));
    expect(canonicalJson(Uint8Array.of(1))).toMatch(/^\{"\$binary":\{"sha256":"[0-9a-f]{64}","size":1\}\}$/);
  });
});

describe.each(['sqlite', 'postgres'] as const)('binary results in the %s dedup store', (kind) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'bin');
  });
  afterAll(() => t.cleanup());

  it('a fail-closed write answering with bytes: stored once, replayed byte-identical as a Blob of the same type', async () => {
    const idem = createIdempotency({ store: t.store });
    const caller = createHttpCaller({ baseUrl: server.url });
    const before = server.effects;
    const req = {
      operation: 'POST /renders',
      key: `render-${kind}-0123456789abcdef`,
      args: { title: 'q3' },
      mechanism: 'fail-closed' as const,
    };
    const call = () =>
      caller
        .send({
          method: 'POST',
          path: '/renders',
          body: { title: 'q3' },
          bodyType: 'json',
          responseType: 'blob',
          mechanism: 'fail-closed',
        })
        .then((r) => r.body as Blob);
    const first = await idem.run(req, call);
    const again = await idem.run(req, call);
    expect(server.effects - before).toBe(1);
    expect(again.wasReplay).toBe(true);
    expect(again.result).toBeInstanceOf(Blob);
    expect(again.result.type).toBe('image/png');
    expect(await bytesOfBlob(again.result)).toEqual(await bytesOfBlob(first.result));
    expect((await bytesOfBlob(first.result))[0]).toBe(0x89);
  });

  it('ArrayBuffer, Uint8Array and nested Blobs round-trip; a binary result over the cap replays as too-large', async () => {
    const idem = createIdempotency({ store: t.store, maxResultBytes: 8192 });
    const value = {
      ab: ALL_BYTES.slice().buffer,
      u8: ALL_BYTES,
      parts: [new Blob([ALL_BYTES], { type: 'x/y' })],
      empty: {},
    };
    const req = { operation: 'op', key: `mixed-${kind}-0123456789abcdef`, args: {}, mechanism: 'dedup-table' as const };
    await idem.run(req, async () => value);
    const { result } = await idem.run(req, async () => value);
    expect(result.ab).toBeInstanceOf(ArrayBuffer);
    expect(new Uint8Array(result.ab)).toEqual(ALL_BYTES);
    expect(result.u8).toBeInstanceOf(Uint8Array);
    expect(result.u8).toEqual(ALL_BYTES);
    expect(result.parts[0]!.type).toBe('x/y');
    expect(await bytesOfBlob(result.parts[0])).toEqual(ALL_BYTES);
    expect(result.empty).toEqual({});
    const big = { operation: 'op', key: `big-${kind}-0123456789abcdefgh`, args: {}, mechanism: 'dedup-table' as const };
    await idem.run(big, async () => new Blob([new Uint8Array(8192)]));
    await expect(idem.run(big, async () => new Blob([]))).rejects.toBeInstanceOf(IdempotencyResultTooLargeError);
  });
});
