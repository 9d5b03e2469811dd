/**
 * A native-key replay is recognised however the API signals it, through the generated client and through a tool
 * call (the same `executeOperation`), against a real node:http server that dedupes by `Idempotency-Key`:
 * a replay header (a convention other than Stripe's), else a creation time in the body older than the retry
 * that got it, else nothing: a fresh call. The result says how (`replayEvidence` / `replay_evidence`) and never
 * reports a time it does not have.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { createToolRuntime } from '../../../packages/runtime/src/tools/runtime.js';
import { outcomeToResult } from '../../../packages/runtime/src/mcp/outcome.js';
import type { ApiPlan } from '../../../src/classify/types.js';
import { OUT_ROOT } from './helpers/compile.js';
import { importClient, type ClientFactory } from './helpers/import-client.js';
import { loadApis, planApis } from './helpers/spec-plan.js';

const keyHeader = { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string' } };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Orders', version: '1' },
  servers: [{ url: 'https://orders.example.test' }],
  paths: {
    '/orders': {
      post: {
        operationId: 'createOrder',
        parameters: [keyHeader],
        requestBody: { required: true, content: json({ type: 'object', properties: { item: { type: 'string' } } }) },
        responses: { '201': { description: 'created', content: json({ $ref: '#/components/schemas/Order' }) } },
      },
    },
    '/tickets': {
      post: {
        operationId: 'createTicket',
        parameters: [keyHeader],
        requestBody: { required: true, content: json({ type: 'object', properties: { title: { type: 'string' } } }) },
        responses: { '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Ticket' }) } },
      },
    },
    '/orders/{id}/cancel': {
      post: {
        operationId: 'cancelOrder',
        parameters: [keyHeader, { name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Order' }) } },
      },
    },
  },
  components: {
    schemas: {
      Order: {
        type: 'object',
        properties: { id: { type: 'string' }, created_at: { type: 'string', format: 'date-time' } },
      },
      Ticket: { type: 'object', properties: { id: { type: 'string' }, created: { type: 'integer' } } },
    },
  },
};

type Mode = { replayHeader?: string; stallFirstMs?: number; createdAs?: 'iso' | 'unix' };

/** Dedupes by key; a repeat gets the stored body back (with `replayHeader: true` when set). */
async function startApi(mode: Mode) {
  const done = new Map<string, Record<string, unknown>>();
  let effects = 0;
  let requests = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      requests++;
      const key = String(req.headers['idempotency-key']);
      const seen = done.get(key);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (seen !== undefined) {
        if (mode.replayHeader !== undefined) headers[mode.replayHeader] = 'true';
        res.writeHead(200, headers).end(JSON.stringify(seen));
        return;
      }
      effects++;
      const now = Date.now();
      const created =
        mode.createdAs === 'unix' ? { created: Math.floor(now / 1000) } : { created_at: new Date(now).toISOString() };
      const body = { id: `obj_${effects}`, ...created };
      done.set(key, body);
      // Committed, then the answer stalls past the client's timeout: the client retries with the same key.
      const stall = effects === 1 ? (mode.stallFirstMs ?? 0) : 0;
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(201, headers).end(JSON.stringify(body));
      }, stall);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    effects: () => effects,
    requests: () => requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let plan: ApiPlan;
let createClient: ClientFactory;
let api: Awaited<ReturnType<typeof startApi>> | undefined;
const fast = { timeoutMs: 1000, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 } };
/** The retry leaves 2 s after the first send: more than the `Date` header's one-second floor can hide. */
const stalled = { ...fast, timeoutMs: 2000 };

beforeAll(async () => {
  const base = join(OUT_ROOT, 'replay-evidence');
  mkdirSync(base, { recursive: true });
  writeFileSync(join(base, 'orders.json'), JSON.stringify(SPEC));
  const { apis, errors } = await loadApis(['orders.json'], base);
  expect(errors).toEqual([]);
  plan = planApis(apis)[0]!;
  const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
  const client = files.find((f) => f.path === 'client/orders.gen.ts')!.contents;
  // Decided at generate time: the creation field of each creating operation, none for an action.
  expect(client).toContain(`replay: { created: { field: "created_at", format: "date-time" } }`);
  expect(client).toContain(`replay: { created: { field: "created", format: "unix-seconds" } }`);
  expect(client.match(/replay: /g)).toHaveLength(2);
  createClient = await importClient('replay-evidence', files, 'client/orders.gen.ts', 'createOrdersClient');
});

afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('native-key replays through the generated client', () => {
  it('a replay header other than Stripe’s (Idempotency-Replayed): evidence names the header, no original time', async () => {
    api = await startApi({ replayHeader: 'Idempotency-Replayed' });
    const client = createClient({ baseUrl: api.url, ...fast });
    const first = await client.createOrder!({ body: { item: 'tea' } }, { key: 'order-key-header-000001' });
    const again = await client.createOrder!({ body: { item: 'tea' } }, { key: 'order-key-header-000001' });
    expect(first).toMatchObject({ wasReplay: false });
    expect(first.replayEvidence).toBeUndefined();
    expect(again).toMatchObject({ wasReplay: true, replayEvidence: 'header:Idempotency-Replayed' });
    expect('originalCalledAt' in again).toBe(false);
    expect(api.effects()).toBe(1);
  });

  it('no header, commit then stall past the timeout: the retry’s answer has an older created_at → created-before-send', async () => {
    api = await startApi({ stallFirstMs: 3000 });
    const client = createClient({ baseUrl: api.url, ...stalled });
    const before = Date.now();
    const got = await client.createOrder!({ body: { item: 'tea' } }, { key: 'order-key-stamp-0000001' });
    expect(got).toMatchObject({ wasReplay: true, replayEvidence: 'created-before-send' });
    // The original time is the one the API recorded for the creation, not the replay's.
    expect(got.originalCalledAt.toISOString()).toBe(got.result.created_at);
    expect(got.originalCalledAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(api.effects()).toBe(1);
    expect(api.requests()).toBeGreaterThanOrEqual(2);
  });

  it('unix seconds (`created`), a later call with the same key: created-before-send', async () => {
    api = await startApi({ createdAs: 'unix' });
    const client = createClient({ baseUrl: api.url, ...fast });
    const first = await client.createTicket!({ body: { title: 'a' } }, { key: 'ticket-key-unix-0000001' });
    expect(first.wasReplay).toBe(false);
    await new Promise((r) => setTimeout(r, 2100)); // seconds precision plus the Date header's second
    const again = await client.createTicket!({ body: { title: 'a' } }, { key: 'ticket-key-unix-0000001' });
    expect(again).toMatchObject({ wasReplay: true, replayEvidence: 'created-before-send' });
    expect(again.originalCalledAt.getTime()).toBe(first.result.created * 1000);
    expect(api.effects()).toBe(1);
  });

  it('neither a header nor an older creation time: a fresh call, no evidence, its own time', async () => {
    api = await startApi({});
    const client = createClient({ baseUrl: api.url, ...fast });
    const before = Date.now();
    const got = await client.createOrder!({ body: { item: 'tea' } }, { key: 'order-key-fresh-0000001' });
    expect(got.wasReplay).toBe(false);
    expect('replayEvidence' in got).toBe(false);
    expect(got.originalCalledAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(api.effects()).toBe(1);
  });

  it('a header saying false is the API’s answer: no timestamp is read', async () => {
    api = await startApi({ createdAs: 'iso' });
    const client = createClient({ baseUrl: api.url, ...fast, headers: {} });
    await client.createOrder!({ body: { item: 'x' } }, { key: 'order-key-false-0000001' });
    await api.close();
    // A server that says `Idempotent-Replayed: false` on an answer whose creation time is old.
    const old = new Date(Date.now() - 60_000).toISOString();
    const s = createServer((_req, res) =>
      res
        .writeHead(201, { 'content-type': 'application/json', 'idempotent-replayed': 'false' })
        .end(JSON.stringify({ id: 'o1', created_at: old })),
    );
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const other = createClient({ baseUrl: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, ...fast });
    const got = await other.createOrder!({ body: { item: 'x' } }, { key: 'order-key-false-0000002' });
    expect(got.wasReplay).toBe(false);
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
    api = undefined;
  });
});

describe('native-key replays through a tool call (createToolRuntime and its MCP result)', () => {
  const tools = (timing = fast) => {
    const bindings = buildToolBindings(plan, resolveConfig());
    expect(bindings.find((b) => b.operation === 'POST /orders')?.replay).toEqual({
      created: { field: 'created_at', format: 'date-time' },
    });
    expect(bindings.find((b) => b.operation === 'POST /orders/{id}/cancel')?.replay).toBeUndefined();
    return createToolRuntime({ bindings, baseUrl: api!.url, ...timing });
  };
  const args = (key: string) => ({ body: { item: 'tea' }, idempotency_key: key });

  it('header: replay_evidence and no original_called_at; the MCP _meta has no empty time', async () => {
    api = await startApi({ replayHeader: 'X-Idempotency-Replayed' });
    const rt = tools();
    await rt.call('createOrder', args('tool-order-key-header-01'));
    const again = await rt.call('createOrder', args('tool-order-key-header-01'));
    expect(again).toMatchObject({ ok: true, was_replay: true, replay_evidence: 'header:X-Idempotency-Replayed' });
    expect('original_called_at' in again).toBe(false);
    const mcp = outcomeToResult(again);
    expect(mcp._meta).toEqual({
      'idemgen/replay': { wasReplay: true, replayEvidence: 'header:X-Idempotency-Replayed' },
    });
    expect(api.effects()).toBe(1);
  });

  it('timestamp: commit, stall past the timeout, the retry is recognised by created_at', async () => {
    api = await startApi({ stallFirstMs: 3000 });
    const got = await tools(stalled).call('createOrder', args('tool-order-key-stamp-001'));
    expect(got).toMatchObject({ ok: true, was_replay: true, replay_evidence: 'created-before-send' });
    if (!got.ok) throw new Error('unreachable');
    expect(got.original_called_at).toBe((got.result as { created_at: string }).created_at);
    expect(outcomeToResult(got)._meta).toEqual({
      'idemgen/replay': {
        wasReplay: true,
        originalCalledAt: (got.result as { created_at: string }).created_at,
        replayEvidence: 'created-before-send',
      },
    });
    expect(api.effects()).toBe(1);
  });

  it('neither: a fresh call, no replay evidence', async () => {
    api = await startApi({});
    const got = await tools().call('createOrder', args('tool-order-key-fresh-001'));
    expect(got).toMatchObject({ ok: true, was_replay: false });
    expect('replay_evidence' in got).toBe(false);
    expect(outcomeToResult(got)._meta).toBeUndefined();
  });
});
