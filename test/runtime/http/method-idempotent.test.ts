/**
 * `method-idempotent` in the HTTP layer (core/method-idempotent.ts) against a real node:http server holding
 * resources: an ambiguous outcome (the server commits, then stalls, resets or answers 5xx) is retried with no
 * key and no store; a DELETE whose retry finds the resource gone is done (`replayed`); a first-attempt 404,
 * or a 404 after a definite refusal (429), is still the API's error; a retried PUT returns the final answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeResult } from '../../../packages/runtime/src/client/support.js';
import { goneAfterAmbiguous, statusMayHaveExecuted } from '../../../packages/runtime/src/core/method-idempotent.js';
import { createHttpCaller, HttpStatusError } from '../../../packages/runtime/src/index.js';

type Fault = 'stall' | 'reset' | '503' | '429-before';

const resources = new Map<string, string>();
const faults = new Map<string, Fault>();
const requests: string[] = [];
let effects = 0;
const held: ServerResponse[] = [];
let server: Server;
let baseUrl: string;

function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  const path = req.url ?? '';
  requests.push(`${req.method} ${path}`);
  const fault = faults.get(path);
  faults.delete(path); // one fault per path: the retry is answered normally
  if (fault === '429-before') {
    res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":"slow down"}');
    return;
  }
  let status: number;
  if (req.method === 'DELETE') {
    if (!resources.has(path)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such resource"}');
      return;
    }
    resources.delete(path);
    status = 200;
  } else {
    status = resources.has(path) ? 200 : 201;
    resources.set(path, body);
  }
  effects++;
  // The effect is committed; now the answer is lost.
  if (fault === 'stall') return void held.push(res);
  if (fault === 'reset') return void req.socket.destroy();
  if (fault === '503') return void res.writeHead(503).end('busy');
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ path, deleted: req.method === 'DELETE' }));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const r of held) r.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const caller = () =>
  createHttpCaller({ baseUrl, timeoutMs: 250, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 } });
const del = (path: string) =>
  caller().send({ method: 'DELETE', path, bodyType: 'none', mechanism: 'method-idempotent' });

describe('method-idempotent DELETE', () => {
  it.each<Fault>(['stall', 'reset', '503'])(
    'the server deletes, then %s → retried, one effect, reported as done (wasReplay)',
    async (fault) => {
      const path = `/things/del-${fault}`;
      resources.set(path, '{}');
      faults.set(path, fault);
      const before = effects;
      const res = await del(path);
      expect(res).toMatchObject({ status: 404, body: null, replayed: true });
      expect(nativeResult(res)).toEqual({ result: null, wasReplay: true, replayEvidence: 'gone-after-retry' });
      expect(effects - before).toBe(1);
      expect(requests.filter((r) => r === `DELETE ${path}`)).toHaveLength(2);
      expect(resources.has(path)).toBe(false);
    },
  );

  it('a 404 on the first attempt is the API saying the resource never existed: an error', async () => {
    const err = await del('/things/never').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err).toMatchObject({ status: 404, definiteFailure: true });
  });

  it('a 404 after a definite refusal (429: nothing ran) is still an error', async () => {
    const path = '/things/refused-then-missing';
    faults.set(path, '429-before');
    const err = await del(path).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404 });
    expect(requests.filter((r) => r === `DELETE ${path}`)).toHaveLength(2);
  });

  it('no fault: one request, the answer as sent, not a replay', async () => {
    const path = '/things/plain';
    resources.set(path, '{}');
    const res = await del(path);
    expect(res.status).toBe(200);
    expect(nativeResult(res).wasReplay).toBe(false);
  });

  it('other mechanisms are not retried and never turn a 404 into done', async () => {
    const path = '/things/fail-closed';
    resources.set(path, '{}');
    faults.set(path, '503');
    const err = await caller()
      .send({ method: 'DELETE', path, bodyType: 'none', mechanism: 'fail-closed' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503 });
    expect(requests.filter((r) => r === `DELETE ${path}`)).toHaveLength(1);
  });
});

describe('method-idempotent PUT', () => {
  it.each<Fault>(['stall', 'reset', '503'])(
    'the server writes, then %s → retried, the final answer returned',
    async (fault) => {
      const path = `/things/put-${fault}`;
      faults.set(path, fault);
      const res = await caller().send({
        method: 'PUT',
        path,
        body: { name: 'x' },
        bodyType: 'json',
        mechanism: 'method-idempotent',
      });
      expect(res.status).toBe(200); // the retry replaced what the first attempt had created
      expect(res.replayed).toBeUndefined();
      expect(resources.get(path)).toBe('{"name":"x"}');
      expect(requests.filter((r) => r === `PUT ${path}`)).toHaveLength(2);
    },
  );
});

describe('the rule itself', () => {
  it('only a DELETE of this mechanism after an ambiguous attempt, and only 404/410', () => {
    expect(goneAfterAmbiguous('DELETE', 'method-idempotent', 410, true)).toBe(true);
    expect(goneAfterAmbiguous('delete', 'method-idempotent', 404, true)).toBe(true);
    expect(goneAfterAmbiguous('DELETE', 'method-idempotent', 404, false)).toBe(false);
    expect(goneAfterAmbiguous('PUT', 'method-idempotent', 404, true)).toBe(false);
    expect(goneAfterAmbiguous('DELETE', 'fail-closed', 404, true)).toBe(false);
    expect(goneAfterAmbiguous('DELETE', 'method-idempotent', 400, true)).toBe(false);
    expect([500, 503, 408].map(statusMayHaveExecuted)).toEqual([true, true, true]);
    expect([429, 425, 409].map(statusMayHaveExecuted)).toEqual([false, false, false]);
  });
});
