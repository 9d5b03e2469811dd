/**
 * One behaviour suite for the one engine: every scenario runs through BOTH paths that call
 * `executeOperation` — the generated client's typed facade and the tool runtime over the same plan's bindings —
 * against a real node:http server that counts side effects and injects faults. Same key placement per carrier,
 * same scoped wire key, one effect across a timeout, fail closed on an ambiguous write, typed errors.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiPlan } from '../../src/classify/types.js';
import { resolveConfig } from '../../src/config/types.js';
import { emitClient } from '../../src/emit/client/index.js';
import { buildToolBindings } from '../../src/emit/handlers/bindings.js';
import {
  createMemoryStore,
  HttpStatusError,
  IdempotencyOutcomeUnknownError,
  type DedupStore,
} from '../../packages/runtime/src/index.js';
import { createToolRuntime, parseToolBindings, type ToolBinding } from '../../packages/runtime/src/tools/index.js';
import { bindingsText as legacyText } from '../fixtures/legacy-bindings/payments.bindings.gen.js';
import { OUT_ROOT } from '../emit/client/helpers/compile.js';
import { fixturePlans } from '../emit/client/helpers/fixture-plans.js';
import { withRuntimeSources } from '../emit/client/helpers/import-client.js';
import { jsonAnswer, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

type Obj = Record<string, unknown>;
type Input = { path?: Obj; query?: Obj; header?: Obj; cookie?: Obj; body?: unknown };

/** What a scenario sees of one call, whichever path made it. */
type Outcome =
  | { ok: true; result: unknown; wasReplay: boolean; cannotUndo?: true }
  | { ok: false; error: unknown; code: string; status?: number; executed?: string };

interface Setup {
  baseUrl: string;
  store?: DedupStore;
  /** The principal's namespace (client option `scope`; tool runtime option `scope`). */
  scope?: string;
  fetch?: typeof fetch;
}

interface EnginePath {
  name: 'client' | 'tool';
  open(setup: Setup): (method: string, input: Input, key: string) => Promise<Outcome>;
}

const fast = { timeoutMs: 1000, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 } };

let plan: ApiPlan;
let bindings: ToolBinding[];
let createClient: (options: Obj) => Record<string, (request: unknown, options?: unknown) => Promise<any>>;
let server: FaultServer | undefined;

beforeAll(async () => {
  const plans = await fixturePlans();
  plan = plans.find((p) => p.api.operations.some((o) => o.key === 'POST /charges'))!;
  // config `overrides["GET /files/{fileId}/content"].timeoutMs`, as classify puts it on the entry.
  plan.entries.find((e) => e.operation.key === 'GET /files/{fileId}/content')!.timeoutMs = 4000;
  // A verification plan, as classify finds one (a natural key: the note's id addresses a read of it).
  plan.entries.find((e) => e.operation.key === 'PUT /notes/{noteId}')!.verification = {
    shape: 'natural-key',
    read: {
      operation: 'GET /notes/{noteId}',
      method: 'GET',
      path: '/notes/{noteId}',
      args: [{ in: 'path', name: 'noteId', value: { from: 'request', in: 'path', name: 'noteId' } }],
    },
  };
  bindings = buildToolBindings(plan, resolveConfig());
  const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
  const dir = join(OUT_ROOT, 'engine-both-paths');
  mkdirSync(dir, { recursive: true });
  const file = files.find((f) => f.path.startsWith('client/'))!;
  writeFileSync(join(dir, 'client.gen.ts'), withRuntimeSources(file.contents, dir));
  const mod = (await import(join(dir, 'client.gen.ts'))) as Record<string, typeof createClient>;
  createClient = Object.entries(mod).find(([k]) => k.startsWith('create') && k.endsWith('Client'))![1];
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Grouped input → the tool's flat arguments, by the binding's own routes (the inverse of the runtime's routing). */
function flatArgs(b: ToolBinding, input: Input, key: string): Obj {
  const args: Obj = {};
  for (const r of b.routes) {
    const group = input[r.in];
    if (group !== undefined && r.name in group) args[r.property] = group[r.name];
  }
  if (b.body !== undefined && input.body !== undefined) args[b.body.property] = input.body;
  if (b.keyProperty !== undefined) args[b.keyProperty] = key;
  return args;
}

const PATHS: EnginePath[] = [
  {
    name: 'client',
    open(setup) {
      const client = createClient({ ...fast, ...setup });
      return async (method, input, key) => {
        try {
          // An empty key: the caller passes none (the description's keyStrategy then decides).
          const r = await client[method]!(input, key === '' ? undefined : { key });
          // A read's method answers its value as it is; a write's, its outcome.
          const outcome = typeof r === 'object' && r !== null && 'wasReplay' in r;
          if (!outcome) return { ok: true, result: r, wasReplay: false };
          return { ok: true, result: r.result, wasReplay: r.wasReplay, ...(r.cannotUndo ? { cannotUndo: true } : {}) };
        } catch (error) {
          const status = error instanceof HttpStatusError ? error.status : undefined;
          return { ok: false, error, code: (error as Error).name, ...(status !== undefined ? { status } : {}) };
        }
      };
    },
  },
  {
    name: 'tool',
    open(setup) {
      const rt = createToolRuntime({ bindings, ...fast, ...setup });
      return async (method, input, key) => {
        const b = rt.find(method)!;
        const out = await rt.call(method, flatArgs(b, input, key));
        if (out.ok)
          return {
            ok: true,
            result: out.result,
            wasReplay: out.was_replay,
            ...(out.cannot_undo === true ? { cannotUndo: true } : {}),
          };
        const { code, status, executed } = out.error;
        return { ok: false, error: out.error, code, executed, ...(status !== undefined ? { status } : {}) };
      };
    },
  },
];

/** What a result is, comparable across the paths: a Blob by its bytes, anything else as it is. */
async function shapeOf(result: unknown): Promise<unknown> {
  if (result instanceof Blob) return { blob: Buffer.from(await result.arrayBuffer()).toString('hex') };
  return { [typeof result]: result };
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);
/** A server that labels bytes as text: only a pinned `responseType` keeps them bytes. */
const mislabelled = () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: PNG });

const charge: Input = { body: { amount: 1200, currency: 'usd' } };
const transfer: Input = { body: { amount: 500, currency: 'usd', destination: 'acct_1' } };
const sms: Input = { body: { to: '+15550100', body: 'Your code is 1234' } };

describe.each(PATHS)('$name path → executeOperation', (path) => {
  it('header carrier: the key goes in Idempotency-Key, unchanged without a scope', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const call = path.open({ baseUrl: server.url });
    const key = 'header-key-000000000000001';
    expect(await call('createCharge', charge, key)).toMatchObject({ ok: true, wasReplay: false });
    expect(server.requests.map((r) => r.key)).toEqual([key]);
    expect(server.requests[0]!.headers['content-type']).toMatch(/application\/json/);
  });

  it('body carrier: the key is a field of the JSON body, the rest of the body as given', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'body', name: 'idempotency_key' } });
    const call = path.open({ baseUrl: server.url });
    const key = 'body-key-00000000000000001';
    expect(await call('createTransfer', transfer, key)).toMatchObject({ ok: true });
    expect(server.received).toEqual([{ ...(transfer.body as Obj), idempotency_key: key }]);
    expect(server.requests[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('a principal scope: the wire key is hash(scope, key), stable per principal, distinct between principals', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const key = 'scoped-key-000000000000001';
    const alice = path.open({ baseUrl: server.url, scope: 'sub:alice' });
    const bob = path.open({ baseUrl: server.url, scope: 'sub:bob' });
    await alice('createCharge', charge, key);
    await alice('createCharge', charge, key);
    await bob('createCharge', charge, key);
    const [a1, a2, b1] = server.requests.map((r) => r.key);
    expect(a1).toMatch(/^[0-9a-f]{16,64}$/);
    expect(a1).not.toBe(key);
    expect(a2).toBe(a1);
    expect(b1).not.toBe(a1);
    expect(server.effects).toBe(2); // alice's retry was the API's replay; bob's is his own effect
    expect(SCOPED_WIRE_KEYS.get(path.name)).toBeUndefined();
    SCOPED_WIRE_KEYS.set(path.name, a1!);
  });

  it('native key, commit then timeout: the retry carries the same key; one effect, the original result', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const call = path.open({ baseUrl: server.url });
    server.inject({ kind: 'stall', ms: 2500 });
    const key = 'retry-key-0000000000000001';
    const first = await call('createCharge', charge, key);
    expect(first).toMatchObject({ ok: true, wasReplay: true });
    expect(server.effects).toBe(1);
    expect(server.requests.map((r) => r.key)).toEqual([key, key]);
    const again = await call('createCharge', charge, key);
    expect(again).toMatchObject({ ok: true, wasReplay: true, result: first.ok ? first.result : undefined });
    expect(server.effects).toBe(1);
  });

  it('fail closed: an ambiguous write (commit then timeout) is unknown, and never sent again', async () => {
    server = await startFaultServer();
    const call = path.open({ baseUrl: server.url, store: createMemoryStore() });
    server.inject({ kind: 'stall', ms: 2500 });
    const key = 'sms-key-000000000000000001';
    const first = await call('sendSms', sms, key);
    const second = await call('sendSms', sms, key);
    for (const out of [first, second]) {
      expect(out.ok).toBe(false);
      if (path.name === 'client')
        expect((out as { error: unknown }).error).toBeInstanceOf(IdempotencyOutcomeUnknownError);
      else expect(out).toMatchObject({ code: 'idempotency_outcome_unknown', executed: 'unknown' });
    }
    expect(server.effects).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("a 4xx is the API's typed answer: no effect, the status kept, the operation named", async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const call = path.open({ baseUrl: server.url });
    server.inject({ kind: 'reject', status: 402, body: { error: { code: 'card_declined', message: 'declined' } } });
    const out = await call('createCharge', charge, 'declined-key-0000000000001');
    expect(out).toMatchObject({ ok: false, status: 402 });
    if (path.name === 'client') {
      const err = (out as { error: unknown }).error;
      expect(err).toBeInstanceOf(HttpStatusError);
      expect((err as HttpStatusError).operation).toBe('POST /charges');
      expect((err as HttpStatusError).definiteFailure).toBe(true);
    } else expect(out).toMatchObject({ code: 'api_error', executed: 'no' });
    expect(server.effects).toBe(0);
  });
});

describe.each(PATHS)('$name path → what the description says about bodies', (path) => {
  it('responseType: a binary download is read as bytes whatever the server labels it', async () => {
    server = await startFaultServer({ respond: mislabelled });
    const call = path.open({ baseUrl: server.url });
    const out = await call('downloadFile', { path: { fileId: 'f_1' } }, 'unused-key-000000000000001');
    expect(out.ok).toBe(true);
    expect(await shapeOf((out as { result: unknown }).result)).toEqual({ blob: Buffer.from(PNG).toString('hex') });
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([['GET', '/files/f_1/content']]);
  });

  it('responseType on a deduplicated write: the PNG of a fail-closed render is bytes', async () => {
    server = await startFaultServer({ respond: mislabelled });
    const call = path.open({ baseUrl: server.url, store: createMemoryStore() });
    const out = await call('renderChart', { body: { title: 'q3' } }, 'render-key-000000000000001');
    expect(out.ok).toBe(true);
    expect(await shapeOf((out as { result: unknown }).result)).toEqual({ blob: Buffer.from(PNG).toString('hex') });
    expect(server.effects).toBe(1);
  });

  it("timeoutMs: a slow download has the operation's own time; another read keeps the caller's 1 s", async () => {
    server = await startFaultServer({ respond: mislabelled });
    const call = path.open({ baseUrl: server.url });
    server.always({ kind: 'delay', ms: 1500 });
    const slow = await call('downloadFile', { path: { fileId: 'f_2' } }, 'unused-key-000000000000002');
    expect(slow.ok).toBe(true);
    const other = await call('getCharge', { path: { chargeId: 'ch_1' } }, 'unused-key-000000000000003');
    expect(other.ok).toBe(false);
  });

  it('pathParams, queryParams, queryStyles: the charge id one segment, `expand[]` repeated as declared', async () => {
    server = await startFaultServer();
    const urls: string[] = [];
    const recording: typeof fetch = (input, init) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    const call = path.open({ baseUrl: server.url, fetch: recording });
    const input = { path: { chargeId: 'ch 1/x' }, query: { 'expand[]': ['customer', 'invoice'] } };
    expect(await call('getCharge', input, 'unused-key-000000000000004')).toMatchObject({ ok: true });
    expect(urls.map((u) => u.slice(server!.url.length))).toEqual([
      '/charges/ch%201%2Fx?expand%5B%5D=customer&expand%5B%5D=invoice',
    ]);
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([['GET', '/charges/ch%201%2Fx']]);
  });

  it('keyLimits: a native key shorter than the carrier admits is refused, nothing sent', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const call = path.open({ baseUrl: server.url });
    const out = await call('createCharge', charge, 'short');
    expect(out.ok).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('form body: the refund is sent form-urlencoded, the native key in its header', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const call = path.open({ baseUrl: server.url });
    const key = 'refund-key-000000000000001';
    const out = await call('createRefund', { body: { charge: 'ch_1', amount: 300 } }, key);
    expect(out).toMatchObject({ ok: true, wasReplay: false });
    const [req] = server.requests;
    expect(req!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(req!.body))).toEqual({ charge: 'ch_1', amount: '300' });
    expect(req!.key).toBe(key);
  });
});

describe.each(PATHS)('$name path → what the description says about keys, rows and outcomes', (path) => {
  /** A memory store that records the TTL of every claim (the row's lifetime the description asks for). */
  const recordingStore = () => {
    const inner = createMemoryStore();
    const ttls: number[] = [];
    const store: DedupStore = {
      ...inner,
      claim: (input) => {
        ttls.push(input.ttlMs);
        return inner.claim(input);
      },
    };
    return { store, ttls };
  };

  it("ttlSeconds: the row lives as long as the operation's own TTL (putBlob 1 h, sendSms the default 24 h)", async () => {
    server = await startFaultServer();
    const { store, ttls } = recordingStore();
    const call = path.open({ baseUrl: server.url, store });
    await call('putBlob', { path: { digest: 'd1' }, body: { data: 'abc' } }, 'blob-key-000000000000000001');
    await call('sendSms', sms, 'sms-ttl-key-00000000000001');
    expect(ttls).toEqual([3600 * 1000, 86_400 * 1000]);
  });

  it('keyStrategy content: a content-addressed PUT called without a key is keyed by its content', async () => {
    server = await startFaultServer();
    const call = path.open({ baseUrl: server.url, store: createMemoryStore() });
    const input = { path: { digest: 'd2' }, body: { data: 'same bytes' } };
    // The client needs no key here (`keyStrategy: "content"`): the same bytes at the same address are the same
    // write. A tool call always carries the model's key (its intent), which the tool runtime uses as given.
    const keys = path.name === 'client' ? ['', ''] : ['content-key-00000000000001', 'content-key-00000000000001'];
    const first = await call('putBlob', input, keys[0]!);
    const again = await call('putBlob', input, keys[1]!);
    expect(first).toMatchObject({ ok: true, wasReplay: false });
    expect(again).toMatchObject({ ok: true, wasReplay: true });
    expect(server.effects).toBe(1);
    if (path.name === 'client') {
      const changed = await call('putBlob', { ...input, body: { data: 'other bytes' } }, '');
      expect(changed).toMatchObject({ ok: true, wasReplay: false });
      expect(server.effects).toBe(2);
    }
  });

  it("blobs: a file's bytes are part of the request's identity: new bytes under a used key are refused", async () => {
    server = await startFaultServer();
    const call = path.open({ baseUrl: server.url, store: createMemoryStore() });
    // The client takes a Blob (read and hashed before the key is checked); a tool takes the text the model sent.
    const file = (text: string) => (path.name === 'client' ? new Blob([text], { type: 'text/plain' }) : text);
    const key = 'upload-key-000000000000001';
    const first = await call('uploadFile', { body: { file: file('report v1'), purpose: 'q3' } }, key);
    const same = await call('uploadFile', { body: { file: file('report v1'), purpose: 'q3' } }, key);
    const changed = await call('uploadFile', { body: { file: file('report v2'), purpose: 'q3' } }, key);
    expect(first).toMatchObject({ ok: true, wasReplay: false });
    expect(same).toMatchObject({ ok: true, wasReplay: true });
    expect(changed.ok).toBe(false);
    expect(server.effects).toBe(1);
    expect(server.requests[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(server.requests[0]!.body).toContain('report v1');
  });

  it('compensation: the booking id in the answer addresses its inverse; an answer without one cannot be undone', async () => {
    let n = 0;
    server = await startFaultServer({
      respond: () => jsonAnswer(201, ++n === 1 ? { id: 'bk_1', room: 'r1' } : { room: 'r2' }),
    });
    const call = path.open({ baseUrl: server.url, store: createMemoryStore() });
    const undoable = await call('createBooking', { body: { room: 'r1' } }, 'booking-key-00000000000001');
    const stuck = await call('createBooking', { body: { room: 'r2' } }, 'booking-key-00000000000002');
    expect(undoable).toMatchObject({ ok: true, wasReplay: false });
    expect(undoable).not.toHaveProperty('cannotUndo');
    expect(stuck).toMatchObject({ ok: true, cannotUndo: true });
    expect(server.effects).toBe(2);
  });

  it('verification: an unknown outcome is settled by reading the note back; the PUT is not sent again', async () => {
    server = await startFaultServer({
      respond: (req) =>
        req.method === 'GET'
          ? jsonAnswer(200, { id: 'n_1', text: '# q3' })
          : { status: 200, headers: { 'content-type': 'text/html' }, body: '<h1>q3</h1>' },
    });
    const call = path.open({ baseUrl: server.url, store: createMemoryStore() });
    server.inject({ kind: 'stall', ms: 2500 });
    const out = await call('putNote', { path: { noteId: 'n_1' }, body: '# q3' }, 'note-key-00000000000000001');
    expect(out).toMatchObject({ ok: true, wasReplay: true, result: { id: 'n_1' } });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /notes/n_1', 'GET /notes/n_1']);
  });

  it('replay: a transfer created an hour before the call is recognised as a replay by its `created` time', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    let n = 0;
    server = await startFaultServer({
      keyCarrier: { in: 'body', name: 'idempotency_key' },
      respond: () =>
        jsonAnswer(201, { id: `tr_${++n}`, amount: 500, created: n === 1 ? new Date().toISOString() : hourAgo }),
    });
    const call = path.open({ baseUrl: server.url });
    const fresh = await call('createTransfer', transfer, 'transfer-key-0000000000001');
    const earlier = await call('createTransfer', transfer, 'transfer-key-0000000000002');
    expect(fresh).toMatchObject({ ok: true, wasReplay: false });
    expect(earlier).toMatchObject({ ok: true, wasReplay: true });
  });
});

describe('a bindings file generated before the record (client method in `method`, request in `http`)', () => {
  const legacy = parseToolBindings(legacyText);
  /** What the older runtime derived from such a binding; the record's newer facts are not in the file. */
  const core = (b: ToolBinding) => {
    const { clientMethod, operation, method, path, mechanism, pathParams, queryParams, queryStyles, carrier } = b;
    // A plain top-level body key's path is its name: the older file spelled it out, the record leaves it implied.
    const body = carrier !== undefined && (carrier.in === 'body' || carrier.in === 'form');
    const key =
      carrier === undefined ? undefined : { ...carrier, path: carrier.path ?? (body ? [carrier.name] : undefined) };
    return { clientMethod, operation, method, path, mechanism, pathParams, queryParams, queryStyles, key };
  };

  it('reads as the records the generator makes now, member for member where the file says them', () => {
    expect(legacy.map(core)).toEqual(bindings.map(core));
    // An empty `apiLimits` says what its absence says (the record leaves it out).
    const rest = (b: ToolBinding) => {
      const { apiLimits, ...limits } = b.keyLimits ?? {};
      const keyLimits = b.keyLimits === undefined ? undefined : apiLimits?.length ? { ...limits, apiLimits } : limits;
      return [keyLimits, b.ttlSeconds, b.compensation];
    };
    expect(legacy.map(rest)).toEqual(bindings.map(rest));
  });

  it('runs: the native key in its header, the charge once', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const rt = createToolRuntime({ bindings: legacy, baseUrl: server.url, ...fast });
    const key = 'legacy-key-000000000000001';
    const args = flatArgs(rt.find('createCharge')!, charge, key);
    expect(await rt.call('createCharge', args)).toMatchObject({ ok: true, was_replay: false });
    expect(await rt.call('createCharge', args)).toMatchObject({ ok: true });
    expect(server.requests.map((r) => r.key)).toEqual([key, key]);
    expect(server.effects).toBe(1);
  });
});

/** Filled by the scoped-key scenario of each path: the two paths must derive the same wire key. */
const SCOPED_WIRE_KEYS = new Map<string, string>();

describe('the two paths agree', () => {
  it('on the scoped wire key for the same principal and key', () => {
    expect(SCOPED_WIRE_KEYS.size).toBe(2);
    expect(SCOPED_WIRE_KEYS.get('client')).toBe(SCOPED_WIRE_KEYS.get('tool'));
  });
});
