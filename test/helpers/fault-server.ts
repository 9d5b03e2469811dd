/**
 * A real node:http server on 127.0.0.1 that performs a countable side effect per POST and injects
 * the failures that make retries dangerous (DESIGN §7): commit-then-stall, commit-then-reset,
 * commit-then-5xx, reject-before-commit, slow processing. In native-key mode it dedupes like
 * Stripe: same key + same body → the stored response; same key in flight → 409; same key with a
 * different body → 422 (IETF idempotency-key draft §2.7).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | { kind: 'stall'; ms?: number } // commit, then answer only after `ms` (default: never)
  | { kind: 'reset' } // commit, then destroy the socket
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown } // commit, then answer this
  | { kind: 'reject'; status: number; headers?: Record<string, string>; body?: unknown } // answer before any commit
  | { kind: 'delay'; ms: number }; // slow processing, then commit and answer normally

export interface KeyCarrierSpec {
  in: 'header' | 'body' | 'form' | 'query';
  name: string;
  /** JSON body: where the key sits (`['data', 'attributes', 'idempotencyKey']`); default `[name]`. */
  path?: string[];
}

interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  key: string | undefined;
}

export interface FaultServer {
  url: string;
  /** Side effects committed so far (all keys). */
  readonly effects: number;
  effectsFor(key: string): number;
  requests: RecordedRequest[];
  /** Queue faults; each request takes the next one. */
  inject(...faults: Fault[]): void;
  close(): Promise<void>;
}

interface Stored {
  bodyHash: string;
  done?: { status: number; body: unknown };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function extractKey(carrier: KeyCarrierSpec | undefined, req: IncomingMessage, url: URL, body: string): string | undefined {
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
        for (const part of carrier.path ?? [carrier.name]) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[part] : undefined;
        return typeof v === 'string' ? v : undefined;
      } catch {
        return undefined;
      }
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** `keyCarrier` set → the server honours that idempotency key (native-key mode, OP-1). */
export async function startFaultServer(opts: { keyCarrier?: KeyCarrierSpec } = {}): Promise<FaultServer> {
  const faults: Fault[] = [];
  const requests: RecordedRequest[] = [];
  const byKey = new Map<string, Stored>();
  const perKey = new Map<string, number>();
  let effects = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    const key = extractKey(opts.keyCarrier, req, url, body);
    requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body, key });
    const fault = faults.shift();
    if (fault?.kind === 'reject') return send(res, fault.status, fault.body ?? { error: 'rejected' }, fault.headers);
    const bodyHash = createHash('sha256').update(`${req.method} ${url.pathname}\n${body}`).digest('hex');
    if (key !== undefined) {
      const seen = byKey.get(key);
      if (seen && seen.bodyHash !== bodyHash) {
        return send(res, 422, { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } });
      }
      if (seen && !seen.done) return send(res, 409, { error: { code: 'idempotency_key_in_use', message: 'request in progress' } });
      if (seen?.done) return send(res, seen.done.status, seen.done.body, { 'idempotent-replayed': 'true' });
      byKey.set(key, { bodyHash });
    }
    if (fault?.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
    effects += 1; // the side effect commits here
    if (key !== undefined) perKey.set(key, (perKey.get(key) ?? 0) + 1);
    const result = { id: `obj_${effects}`, effect: effects, path: url.pathname, received: body };
    if (key !== undefined) byKey.set(key, { bodyHash, done: { status: 200, body: result } });
    if (fault?.kind === 'reset') return void req.socket.destroy();
    if (fault?.kind === 'status') return send(res, fault.status, fault.body ?? { error: 'after commit' }, fault.headers);
    if (fault?.kind === 'stall') {
      if (fault.ms === undefined) return; // never answers; closed on shutdown
      await new Promise((r) => setTimeout(r, fault.ms));
    }
    send(res, 200, result);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get effects() {
      return effects;
    },
    effectsFor: (key) => perKey.get(key) ?? 0,
    requests,
    inject: (...f) => void faults.push(...f),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
