/**
 * Real network failures, one by one, each classified by whether the request can have reached the server
 * (a request that cannot have reached it is safe to send again with the same key): no connection, no DNS answer, a connect timeout and a failed TLS handshake are "not sent" (the
 * dedup row is released, so the same key runs once the network is back); a reset after the request left is
 * "unknown" (the row stays pending: fail closed). Every server is real, on 127.0.0.1; the TLS certificate is
 * made at test time with the `openssl` binary; the connect timeout uses a listener that never accepts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHttpCaller,
  createIdempotency,
  createMemoryStore,
  IdempotencyNotSentError,
  IdempotencyOutcomeUnknownError,
  type DedupStore,
  type HttpRequest,
} from '../../../packages/runtime/src/index.js';
import { refusedUrl, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';

const KEY = (n: string) => `net-${n}-0123456789abcdef`;
const post: HttpRequest = { method: 'POST', path: '/v1/things', body: { n: 1 }, bodyType: 'json', mechanism: 'none' };

async function failure(baseUrl: string, req: HttpRequest = post, timeoutMs = 5_000): Promise<unknown> {
  return createHttpCaller({ baseUrl, timeoutMs })
    .send(req)
    .then(
      () => new Error('expected the call to fail'),
      (e: unknown) => e,
    );
}

/** `(code)` the classifier names in its message: the failure it saw, not a guess. */
const codeIn = (err: unknown): string | undefined => /\(([A-Z_]+)\)/.exec((err as Error).message)?.[1];

const listen = async (server: Server | ReturnType<typeof createNetServer>): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/**
 * Through the dedup state machine: a keyed write fails at `failingUrl`, then the same key is sent to a live
 * server. A "not sent" failure released the row (the retry runs once); an "unknown" one did not (fail closed).
 */
async function retryAfter(
  failingUrl: string,
  live: FaultServer,
  key: string,
): Promise<{ first: unknown; second: unknown; store: DedupStore }> {
  const store = createMemoryStore();
  const idem = createIdempotency({ store });
  const run = (baseUrl: string) =>
    idem
      .run({ operation: 'POST /v1/things', key, args: { n: 1 }, mechanism: 'dedup-table' }, (ctx) =>
        createHttpCaller({ baseUrl, timeoutMs: 5_000 }).send({ ...post, mechanism: 'dedup-table', run: ctx }),
      )
      .then(
        (r) => r,
        (e: unknown) => e,
      );
  const first = await run(failingUrl);
  const second = await run(live.url);
  return { first, second, store };
}

let live: FaultServer;
beforeAll(async () => {
  live = await startFaultServer();
});
afterAll(() => live.close());

describe('not sent: the request never reached a server', () => {
  it('a closed port (ECONNREFUSED) → not sent; the same key then runs once', async () => {
    const url = await refusedUrl();
    const err = await failure(url);
    expect(err).toBeInstanceOf(IdempotencyNotSentError);
    expect(codeIn(err)).toBe('ECONNREFUSED');
    const before = live.effectsOn('/v1/things');
    const { first, second } = await retryAfter(url, live, KEY('refused'));
    expect(first).toBeInstanceOf(IdempotencyNotSentError);
    expect(second).toMatchObject({ wasReplay: false, result: { status: 200 } });
    expect(live.effectsOn('/v1/things') - before).toBe(1);
  });

  it('an unresolvable host (RFC 6761 `.invalid`) → not sent, fast and without the network', async () => {
    const started = performance.now();
    const err = await failure('http://idemgen-wire-test.invalid');
    expect(err).toBeInstanceOf(IdempotencyNotSentError);
    expect(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']).toContain(codeIn(err));
    expect(performance.now() - started).toBeLessThan(5_000);
    const { first, second } = await retryAfter('http://idemgen-wire-test.invalid', live, KEY('dns'));
    expect(first).toBeInstanceOf(IdempotencyNotSentError);
    expect(second).toMatchObject({ wasReplay: false });
  });

  describe('TLS', () => {
    let dir: string;
    let hits = 0;
    let port: number;
    let plainPort: number;
    const servers: Server[] = [];
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'idemgen-tls-'));
      // A self-signed certificate for 127.0.0.1, made now: no key material is checked in.
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      const tls = createHttpsServer(
        { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
        (_req, res) => {
          hits += 1;
          res.end('{}');
        },
      );
      const plain = createHttpServer((_req, res) => {
        hits += 1;
        res.end('{}');
      });
      servers.push(tls, plain);
      port = await listen(tls);
      plainPort = await listen(plain);
    });
    afterAll(() => {
      for (const s of servers) s.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a server with a self-signed certificate → not sent (the request follows the handshake)', async () => {
      const err = await failure(`https://127.0.0.1:${port}`);
      expect(err).toBeInstanceOf(IdempotencyNotSentError);
      expect(codeIn(err)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      const { first, second } = await retryAfter(`https://127.0.0.1:${port}`, live, KEY('tls'));
      expect(first).toBeInstanceOf(IdempotencyNotSentError);
      expect(second).toMatchObject({ wasReplay: false });
      expect(hits).toBe(0);
    });

    it('https to a server that does not speak TLS → not sent', async () => {
      const err = await failure(`https://127.0.0.1:${plainPort}`);
      expect(err).toBeInstanceOf(IdempotencyNotSentError);
      expect(codeIn(err)).toBe('ERR_SSL_WRONG_VERSION_NUMBER');
      expect(hits).toBe(0);
    });
  });

  describe('connect timeout', () => {
    let listener: ChildProcess;
    let port: number;
    const fillers: Socket[] = [];
    beforeAll(async () => {
      // Node's servers accept every connection; a Python socket that listens with a backlog of 0 and never
      // accepts fills up after a connection or two, and the kernel then drops the next SYN: a connect timeout.
      listener = spawn(
        'python3',
        [
          '-c',
          'import socket,time\ns=socket.socket()\ns.bind(("127.0.0.1",0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\ntime.sleep(120)',
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      port = await new Promise<number>((resolve) => listener.stdout!.once('data', (d) => resolve(Number(String(d)))));
      for (let i = 0; i < 3; i++) fillers.push(connect(port, '127.0.0.1').on('error', () => undefined));
      await new Promise((r) => setTimeout(r, 300));
    });
    afterAll(() => {
      for (const s of fillers) s.destroy();
      listener.kill();
    });

    it('no connection within undici’s connect timeout (UND_ERR_CONNECT_TIMEOUT) → not sent', async () => {
      const err = await failure(`http://127.0.0.1:${port}`, post, 30_000);
      expect(err).toBeInstanceOf(IdempotencyNotSentError);
      expect(codeIn(err)).toBe('UND_ERR_CONNECT_TIMEOUT');
    }, 40_000);
  });
});

describe('unknown: the request may have reached the server', () => {
  const sockets = new Set<Socket>();
  let afterRequest: number;
  let midBody: number;
  let bytesSeen = 0;
  const servers: ReturnType<typeof createNetServer>[] = [];
  beforeAll(async () => {
    // Reads the whole request head and body, then resets the connection instead of answering.
    const a = createNetServer((s) => {
      sockets.add(s);
      let text = '';
      s.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (text.includes('\r\n\r\n') && text.endsWith('}')) s.resetAndDestroy();
      });
    });
    // Resets after the first chunk of a large body: the head and part of the body arrived.
    const b = createNetServer((s) => {
      sockets.add(s);
      s.once('data', (d: Buffer) => {
        bytesSeen += d.length;
        s.resetAndDestroy();
      });
    });
    servers.push(a, b);
    afterRequest = await listen(a);
    midBody = await listen(b);
  });
  afterAll(() => {
    for (const s of sockets) s.destroy();
    for (const s of servers) s.close();
  });

  it('a reset after the server read the request (ECONNRESET) → unknown; the row stays pending', async () => {
    const err = await failure(`http://127.0.0.1:${afterRequest}`);
    expect(err).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(codeIn(err)).toBe('ECONNRESET');
    const key = KEY('reset');
    const before = live.effectsOn('/v1/things');
    const { first, second, store } = await retryAfter(`http://127.0.0.1:${afterRequest}`, live, key);
    expect(first).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(second).toBeInstanceOf(IdempotencyOutcomeUnknownError); // fail closed: not run again
    expect(live.effectsOn('/v1/things')).toBe(before);
    expect((await store.get({ scope: '', key }))?.status).toBe('pending');
  });

  it('a reset in the middle of the request body → unknown', async () => {
    const big: HttpRequest = { ...post, body: { blob: 'x'.repeat(4_000_000) } };
    const err = await failure(`http://127.0.0.1:${midBody}`, big);
    expect(err).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(bytesSeen).toBeGreaterThan(0);
    expect(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']).toContain(codeIn(err));
  });
});

describe('native-key retries', () => {
  it('a reset, then a refused connection on the retry: unknown, since the first attempt may have run', async () => {
    // Reads the first request, resets, and stops listening: the same-key retry finds the port closed.
    const once = createNetServer((s) => {
      s.once('data', () => {
        s.resetAndDestroy();
        once.close();
      });
    });
    const port = await listen(once);
    const err = await createHttpCaller({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 10 },
    })
      .send({
        ...post,
        key: KEY('native'),
        carrier: { in: 'header', name: 'Idempotency-Key' },
        mechanism: 'native-key',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(codeIn(err)).toBe('ECONNRESET');
  });
});
