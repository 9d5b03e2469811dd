/**
 * What reaches the wire is what the caller asked for, through both call paths — the generated
 * client (emitted from a fixture spec and imported) and the tool runtime (bindings from the same plan) —
 * against a real node:http server on 127.0.0.1 that records each request raw (`req.url`, not a parsed URL,
 * which would resolve dot segments itself):
 * - fast-check: any path value is sent as exactly one segment that decodes back to it, or refused as invalid
 *   arguments with nothing sent; any header value arrives intact, or is refused as not executed;
 * - a path value or a CR/LF header on a keyed write is refused with the key still free: the corrected call with
 *   the same key runs once;
 * - a GET/HEAD with a declared body sends its fields in the query and no body.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiPlan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import {
  IdempotencyNotSentError,
  InvalidArgumentsError,
  type DedupStore,
} from '../../../packages/runtime/src/index.js';
import { createToolRuntime, type ToolBinding, type ToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { importClient, type ClientFactory } from '../../emit/client/helpers/import-client.js';
import { inlinePlan } from '../../emit/client/helpers/inline-spec.js';
import { sqliteStore } from './helpers/sqlite.js';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const str = { type: 'string' };
const trace = { name: 'X-Trace', in: 'header', schema: str };

const WIRE_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Wire', version: '1.0.0' },
  paths: {
    '/orders/{order_id}': {
      get: {
        operationId: 'getOrder',
        parameters: [{ name: 'order_id', in: 'path', required: true, schema: str }, trace],
        responses: ok,
      },
    },
    '/accounts/{account_id}/notes/{note_id}': {
      get: {
        operationId: 'getNote',
        parameters: [
          { name: 'account_id', in: 'path', required: true, schema: str },
          { name: 'note_id', in: 'path', required: true, schema: str },
        ],
        responses: ok,
      },
    },
    '/accounts/{account_id}/notes': {
      post: {
        operationId: 'createNote',
        parameters: [{ name: 'account_id', in: 'path', required: true, schema: str }, trace],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', properties: { text: str } } } },
        },
        responses: ok,
      },
    },
    // Stripe's shape: a form body on a GET (Stripe declares one on every GET, with `expand` among its fields).
    '/search': {
      get: {
        operationId: 'searchThings',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                properties: {
                  expand: { type: 'array', items: str },
                  filter: { type: 'object', properties: { status: str } },
                },
              },
            },
          },
        },
        responses: ok,
      },
    },
    '/lookup': {
      get: {
        operationId: 'lookup',
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { q: str, tags: { type: 'array', items: str } } },
            },
          },
        },
        responses: ok,
      },
    },
  },
};

interface Seen {
  method: string;
  /** Exactly as the request line had it. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let plan: ApiPlan;
let bindings: ToolBinding[];
let createClient: ClientFactory;
let db: { store: DedupStore; cleanup: () => Promise<void> };
let rt: ToolRuntime;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `obj_${seen.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  plan = await inlinePlan('wire-safety', 'wire.json', WIRE_SPEC, {});
  bindings = buildToolBindings(plan, resolveConfig());
  const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
  const path = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'))!.path;
  createClient = await importClient('wire-safety', files, path, 'createWireClient');
  db = sqliteStore('wire-safety');
  rt = createToolRuntime({ bindings, baseUrl, store: db.store });
}, 60_000);

afterAll(async () => {
  await db.cleanup();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

const client = () => createClient({ baseUrl, store: db.store });
/** The tool input property the binding routes to `(in, name)`. */
const prop = (tool: string, where: string, name: string): string =>
  bindings.find((b) => b.clientMethod === tool)!.routes.find((r) => r.in === where && r.name === name)!.property;

/** Path values that must be refused, and arbitrary strings (lone surrogates included). */
const pathValue = fc.oneof(
  fc.constantFrom('', '.', '..', '%2e', '%2E', '%2e%2E', '.%2e', '%2e.', '%252e%252e', './', '../x', 'a/../b'),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('.', '%', '2', 'e', 'E', '/', '?', '#', 'a'), maxLength: 8 }),
);

/** Header values with the characters that break a request: CR, LF, NUL, controls, edge whitespace, > U+00FF. */
const headerValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\r', '\n', '\0', '\x7f', 'é', 'Ā', ':'), maxLength: 8 }),
  fc.constantFrom('ok\r\nX-Injected: 1', ' lead', 'trail\t', 'é', ''),
);

/** One segment per parameter, each decoding to its value: the request went where the template says. */
function expectSegments(url: string, account: string, note: string): void {
  const m = /^\/accounts\/([^/?#]+)\/notes\/([^/?#]+)$/.exec(url);
  expect(m, url).not.toBeNull();
  expect([decodeURIComponent(m![1]!), decodeURIComponent(m![2]!)]).toEqual([account, note]);
}

const mustRefuse = ['', '.', '..', '%2e', '%2E%2e'];

describe('fast-check: a path value moves no request', () => {
  it('generated client: one segment per parameter decoding to its value, or InvalidArgumentsError with nothing sent', async () => {
    const c = client();
    await fc.assert(
      fc.asyncProperty(pathValue, pathValue, async (a, n) => {
        seen.length = 0;
        const out = await c.getNote!({ path: { account_id: a, note_id: n } }).then(
          () => undefined,
          (e: unknown) => e,
        );
        if (out === undefined) {
          expect(seen).toHaveLength(1);
          expectSegments(seen[0]!.url, a, n);
        } else {
          expect(out).toBeInstanceOf(InvalidArgumentsError);
          expect(seen).toHaveLength(0);
        }
        if (mustRefuse.includes(a) || mustRefuse.includes(n)) expect(out).toBeInstanceOf(InvalidArgumentsError);
      }),
      { numRuns: 250 },
    );
  });

  it('tool runtime: one segment per parameter decoding to its value, or invalid_arguments with nothing sent', async () => {
    const account = prop('getNote', 'path', 'account_id');
    const note = prop('getNote', 'path', 'note_id');
    await fc.assert(
      fc.asyncProperty(pathValue, pathValue, async (a, n) => {
        seen.length = 0;
        const out = await rt.call('getNote', { [account]: a, [note]: n });
        if (out.ok) {
          expect(seen).toHaveLength(1);
          expectSegments(seen[0]!.url, a, n);
        } else {
          expect(out.error).toMatchObject({ code: 'invalid_arguments', executed: 'no' });
          expect(out.error.message).not.toMatch(/key/i); // a read has no key
          expect(seen).toHaveLength(0);
        }
        if (mustRefuse.includes(a) || mustRefuse.includes(n)) expect(out.ok).toBe(false);
      }),
      { numRuns: 250 },
    );
  });
});

describe('fast-check: a header value arrives intact or not at all', () => {
  it('generated client: the server sees exactly the value, or the call is refused as not sent', async () => {
    const c = client();
    await fc.assert(
      fc.asyncProperty(headerValue, async (h) => {
        seen.length = 0;
        const out = await c.getOrder!({ path: { order_id: 'o1' }, header: { 'X-Trace': h } }).then(
          () => undefined,
          (e: unknown) => e,
        );
        if (out === undefined) {
          expect(seen).toHaveLength(1);
          expect(seen[0]!.headers['x-trace']).toBe(h);
          expect(seen[0]!.headers['x-injected']).toBeUndefined();
        } else {
          expect(out).toBeInstanceOf(IdempotencyNotSentError);
          expect(seen).toHaveLength(0);
        }
        if (/[\r\n]/.test(h)) expect(out).toBeInstanceOf(IdempotencyNotSentError);
      }),
      { numRuns: 200 },
    );
  });

  it('tool runtime: the server sees exactly the value, or invalid_arguments with nothing sent', async () => {
    const id = prop('getOrder', 'path', 'order_id');
    const header = prop('getOrder', 'header', 'X-Trace');
    await fc.assert(
      fc.asyncProperty(headerValue, async (h) => {
        seen.length = 0;
        const out = await rt.call('getOrder', { [id]: 'o1', [header]: h });
        if (out.ok) {
          expect(seen).toHaveLength(1);
          expect(seen[0]!.headers['x-trace']).toBe(h);
        } else {
          expect(out.error).toMatchObject({ code: 'invalid_arguments', executed: 'no', retry_same_key: true });
          expect(seen).toHaveLength(0);
        }
        if (/[\r\n]/.test(h)) expect(out.ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a refused write leaves its key free', () => {
  it('client: `..` as a path value, then a CR/LF header: not sent; the corrected call with the same key runs once', async () => {
    const c = client();
    const key = 'wire-client-key-0123456789';
    const body = { text: 'hello' };
    const dots = await c.createNote!({ path: { account_id: '..' }, body }, { key }).catch((e: unknown) => e);
    expect(dots).toBeInstanceOf(InvalidArgumentsError);
    const crlf = await c.createNote!(
      { path: { account_id: 'acct_1' }, header: { 'X-Trace': 'a\r\nX-Injected: 1' }, body },
      { key },
    ).catch((e: unknown) => e);
    expect(crlf).toBeInstanceOf(InvalidArgumentsError);
    expect((crlf as Error).message).not.toContain('X-Injected'); // the value is never echoed
    expect(seen).toHaveLength(0);
    const good = { path: { account_id: 'acct_1' }, header: { 'X-Trace': 't-1' }, body };
    const first = await c.createNote!(good, { key });
    const again = await c.createNote!(good, { key });
    expect(first).toMatchObject({ wasReplay: false, result: { id: 'obj_1' } });
    expect(again).toMatchObject({ wasReplay: true, result: { id: 'obj_1' } });
    expect(seen.map((s) => [s.method, s.url, s.headers['x-trace']])).toEqual([
      ['POST', '/accounts/acct_1/notes', 't-1'],
    ]);
  });

  it('tools: `..` and a CR/LF header are invalid_arguments before the claim; the corrected call runs once', async () => {
    const key = 'wire-tool-key-0123456789ab';
    const account = prop('createNote', 'path', 'account_id');
    const header = prop('createNote', 'header', 'X-Trace');
    const keyProperty = bindings.find((b) => b.clientMethod === 'createNote')!.keyProperty!;
    const args = { [keyProperty]: key, [account]: 'acct_2', body: { text: 'hi' } };
    const dots = await rt.call('createNote', { ...args, [account]: '%2E%2e' });
    expect(dots).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', executed: 'no', retry_same_key: true },
    });
    expect(dots.ok === false && dots.error.issues?.[0]?.pointer).toBe(`/${account}`);
    const crlf = await rt.call('createNote', { ...args, [header]: 'x\r\nX-Injected: 1' });
    expect(crlf).toMatchObject({ ok: false, error: { code: 'invalid_arguments', executed: 'no' } });
    expect(seen).toHaveLength(0);
    const first = await rt.call('createNote', { ...args, [header]: 't-2' });
    const again = await rt.call('createNote', { ...args, [header]: 't-2' });
    expect(first).toMatchObject({ ok: true, was_replay: false });
    expect(again).toMatchObject({ ok: true, was_replay: true });
    expect(seen.map((s) => [s.method, s.url])).toEqual([['POST', '/accounts/acct_2/notes']]);
  });
});

describe('GET with a declared body: the fields go to the query, no body is sent', () => {
  const form = { expand: ['data.customer', 'data.invoice'], filter: { status: 'open' } };
  const query = 'limit=3&expand%5B0%5D=data.customer&expand%5B1%5D=data.invoice&filter%5Bstatus%5D=open';

  it('generated client: form fields in the bracket style, after the query parameters', async () => {
    await client().searchThings!({ query: { limit: 3 }, body: form });
    await client().lookup!({ body: { q: 'x y', tags: ['a'] } });
    await client().searchThings!({});
    expect(seen.map((s) => [s.method, s.url, s.body, s.headers['content-type'], s.headers['content-length']])).toEqual([
      ['GET', `/search?${query}`, '', undefined, undefined],
      ['GET', '/lookup?q=x+y&tags%5B0%5D=a', '', undefined, undefined],
      ['GET', '/search', '', undefined, undefined],
    ]);
  });

  it('tool runtime: the same request', async () => {
    const limit = prop('searchThings', 'query', 'limit');
    const out = await rt.call('searchThings', { [limit]: 3, body: form });
    expect(out.ok).toBe(true);
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([['GET', `/search?${query}`, '']]);
  });
});
