/**
 * The one counting fault server of the test suite: a real node:http server on 127.0.0.1 that commits
 * a countable side effect per request (counted in total, per key and per route) and follows a
 * FaultPlan (test/helpers/fault-plan.ts) for the failures that make retries dangerous (DESIGN §7).
 * In native-key mode it dedupes like Stripe: same key + same body → the stored answer; same key in
 * flight → 409; same key with a different body → 422 (IETF idempotency-key draft §2.7). `respond`
 * picks the answer per request (raw bytes, text, JSON); the default echoes the effect as JSON.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Fault, FaultPlan } from './fault-plan.js';

export type { Fault } from './fault-plan.js';

interface KeyCarrierSpec {
  in: 'header' | 'body' | 'form' | 'query';
  name: string;
  /** JSON body: where the key sits (`['data', 'attributes', 'idempotencyKey']`); default `[name]`. */
  path?: string[];
}

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  contentType: string | undefined;
  /** The body as UTF-8 text. */
  body: string;
  /** The body's exact bytes (binary uploads). */
  bytes: Buffer;
  key: string | undefined;
}

/** What the server answers: raw bytes or text with the given status and headers. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: string | Uint8Array;
}

export const jsonAnswer = (status: number, value: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

/** Picks the answer for a committed request; `effect` is the 1-based count of effects so far. */
export type Respond = (req: RecordedRequest, effect: number) => Answer;

export interface FaultServerOptions {
  /** Set → the server honours that idempotency key (native-key mode, OP-1). */
  keyCarrier?: KeyCarrierSpec;
  respond?: Respond;
}

export interface FaultServer {
  url: string;
  /** Side effects committed so far (all keys, all routes). */
  readonly effects: number;
  effectsFor(key: string): number;
  effectsOn(path: string): number;
  /** Every request that arrived, committed or not, in order. */
  requests: RecordedRequest[];
  /** The JSON bodies of every request, in order (null for an empty body). */
  readonly received: unknown[];
  /** Resolves once the n-th request (1-based) has arrived. */
  arrived(n: number): Promise<void>;
  /** Queue faults; each request takes the next one. */
  inject(...faults: Fault[]): void;
  /** A standing fault for every request once the queue is empty; `undefined` heals the server. */
  always(fault: Fault | undefined): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function extractKey(
  carrier: KeyCarrierSpec | undefined,
  req: IncomingMessage,
  url: URL,
  body: string,
): string | undefined {
  if (!carrier) return undefined;
  switch (carrier.in) {
    case 'header': {
      const v = req.headers[carrier.name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    }
    case 'query':
      return url.searchParams.get(carrier.name) ?? undefined;
    case 'form':
      return new URLSearchParams(body).get(carrier.name) ?? undefined;
    case 'body':
      try {
        let v: unknown = JSON.parse(body);
        for (const part of carrier.path ?? [carrier.name])
          v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[part] : undefined;
        return typeof v === 'string' ? v : undefined;
      } catch {
        return undefined;
      }
  }
}

function send(res: ServerResponse, answer: Answer, extra: Record<string, string> = {}): void {
  res.writeHead(answer.status, { ...answer.headers, ...extra });
  res.end(answer.body);
}

const echo: Respond = (req, effect) =>
  jsonAnswer(200, { id: `obj_${effect}`, effect, path: req.path, received: req.body });

const parsed = (r: RecordedRequest): unknown => (r.body === '' ? null : (JSON.parse(r.body) as unknown));

export async function startFaultServer(opts: FaultServerOptions = {}): Promise<FaultServer> {
  const plan = new FaultPlan();
  const respond = opts.respond ?? echo;
  const requests: RecordedRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const byKey = new Map<string, { bodyHash: string; done?: Answer }>();
  const perKey = new Map<string, number>();
  const perRoute = new Map<string, number>();
  let effects = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const bytes = await readBody(req);
    const body = bytes.toString('utf8');
    const key = extractKey(opts.keyCarrier, req, url, body);
    const rec: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      headers: req.headers,
      contentType: req.headers['content-type'],
      body,
      bytes,
      key,
    };
    requests.push(rec);
    for (const w of waiters.filter((x) => requests.length >= x.n)) w.resolve();
    const fault = plan.take();
    if (fault?.kind === 'drop') return void req.socket.destroy();
    if (fault?.kind === 'reject')
      return send(res, jsonAnswer(fault.status, fault.body ?? { error: 'rejected' }, fault.headers));
    const bodyHash = createHash('sha256').update(`${req.method} ${url.pathname}\n${body}`).digest('hex');
    if (key !== undefined) {
      const seen = byKey.get(key);
      if (seen && seen.bodyHash !== bodyHash) {
        return send(
          res,
          jsonAnswer(422, {
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          }),
        );
      }
      if (seen && !seen.done)
        return send(
          res,
          jsonAnswer(409, { error: { code: 'idempotency_key_in_use', message: 'request in progress' } }),
        );
      if (seen?.done) return send(res, seen.done, { 'idempotent-replayed': 'true' });
      byKey.set(key, { bodyHash });
    }
    if (fault?.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
    effects += 1; // the side effect commits here
    if (key !== undefined) perKey.set(key, (perKey.get(key) ?? 0) + 1);
    perRoute.set(url.pathname, (perRoute.get(url.pathname) ?? 0) + 1);
    const answer = respond(rec, effects);
    if (key !== undefined) byKey.set(key, { bodyHash, done: answer });
    if (fault?.kind === 'reset') return void req.socket.destroy();
    if (fault?.kind === 'status')
      return send(res, jsonAnswer(fault.status, fault.body ?? { error: 'after commit' }, fault.headers));
    if (fault?.kind === 'stall') {
      if (fault.ms === undefined) return; // never answers; closed on shutdown
      await new Promise((r) => setTimeout(r, fault.ms));
    }
    send(res, answer);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, jsonAnswer(500, { error: String(err) })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get effects() {
      return effects;
    },
    effectsFor: (key) => perKey.get(key) ?? 0,
    effectsOn: (path) => perRoute.get(path) ?? 0,
    requests,
    get received() {
      return requests.map(parsed);
    },
    arrived: (n) =>
      requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    inject: (...f) => void plan.enqueue(...f),
    always: (f) => void plan.always(f),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A base URL on 127.0.0.1 where nothing listens: the connection is refused, so no request ever lands. */
export async function refusedUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
