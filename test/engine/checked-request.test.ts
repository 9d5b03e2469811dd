/**
 * The engine's one request step (`checkedRequest`, client/operation.ts), through both paths — the generated
 * client emitted from an inline spec and the tool runtime over the same plan's bindings — against a real
 * node:http server on 127.0.0.1 that records every request line:
 * - the request is built and checked once, before any key: a bad path value or an undeclared query name is
 *   refused with nothing sent and no dedup row, and the corrected call with the same key runs once;
 * - the tool runtime asks its credentials once per call and sends them on the call (header and query);
 * - a description without `queryParams` (a client generated before the list) still sends its query;
 * - descriptions and bindings spelled `OP-N` (generated before the rename) still run, read as the names;
 * - header names are one per name whatever their case: a per-call header replaces the spec's, cookies share one
 *   `cookie` header (on the wire, with and without credentials).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { emitClient } from '../../src/emit/client/index.js';
import { buildToolBindings } from '../../src/emit/handlers/bindings.js';
import {
  checkedRequest,
  createOperationEngine,
  type OperationDescription,
} from '../../packages/runtime/src/client/operation.js';
import { InvalidArgumentsError, type DedupStore } from '../../packages/runtime/src/index.js';
import { operationOf } from '../../packages/runtime/src/tools/execute.js';
import { createToolRuntime, type ToolBinding } from '../../packages/runtime/src/tools/index.js';
import { importClient, type ClientFactory } from '../emit/client/helpers/import-client.js';
import { inlinePlan } from '../emit/client/helpers/inline-spec.js';
import { sqliteStore } from '../runtime/tools/helpers/sqlite.js';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const str = { type: 'string' };

const NOTES = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1.0.0' },
  security: [{ token: [], apiKey: [] }],
  components: {
    securitySchemes: {
      token: { type: 'http', scheme: 'bearer' },
      apiKey: { type: 'apiKey', in: 'query', name: 'api_key' },
    },
  },
  paths: {
    '/notes': {
      get: {
        operationId: 'listNotes',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
        responses: ok,
      },
      post: {
        operationId: 'createNote',
        parameters: [{ name: 'notify', in: 'query', schema: { type: 'boolean' } }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', properties: { text: str } } } },
        },
        responses: ok,
      },
    },
    '/notes/{note_id}': {
      delete: {
        operationId: 'deleteNote',
        parameters: [{ name: 'note_id', in: 'path', required: true, schema: str }],
        responses: ok,
      },
    },
  },
};

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** Name/value pairs as they came on the wire (Node merges repeats in `headers`). */
  raw: string[];
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let bindings: ToolBinding[];
let createClient: ClientFactory;
let db: { store: DedupStore; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw: req.rawHeaders });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `note_${seen.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const plan = await inlinePlan('engine-checked-request', 'notes.json', NOTES, {
    'POST /notes': { mechanism: 'saga', compensation: 'DELETE /notes/{note_id}' },
  });
  bindings = buildToolBindings(plan, resolveConfig());
  const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
  const path = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'))!.path;
  createClient = await importClient('engine-checked-request', files, path, 'createNotesClient');
  db = sqliteStore('engine-checked-request');
}, 60_000);

afterAll(async () => {
  await db.cleanup();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

const rowOf = (key: string) => db.store.get({ scope: '', key });
const note = { text: 'hello' };

describe('an undeclared query name', () => {
  it('client: refused before sending, naming the declared ones; the corrected call with the same key runs once', async () => {
    const client = createClient({ baseUrl, store: db.store }) as Record<string, (...a: unknown[]) => Promise<any>>;
    const read = client.listNotes!({ query: { limit: 2, expand: 'author' } });
    await expect(read).rejects.toThrow(InvalidArgumentsError);
    await expect(read).rejects.toThrow(/query parameter "expand" is not declared by the operation \(it takes limit\)/);
    const key = 'client-query-key-0000000001';
    const write = client.createNote!({ query: { notify: true, sudo: 1 }, body: note }, { key });
    await expect(write).rejects.toThrow(/query parameter "sudo" is not declared \S+ \S+ \S+ \(it takes notify\)/);
    expect(seen).toEqual([]);
    expect(await rowOf(key)).toBeUndefined();
    const done = await client.createNote!({ query: { notify: true }, body: note }, { key });
    expect(done.wasReplay).toBe(false);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /notes?notify=true']);
  });

  it('tool runtime: its description lists the declared names; declared ones are sent', async () => {
    const list = bindings.find((b) => b.operation === 'GET /notes')!;
    expect(operationOf(list).queryParams).toEqual(['limit']);
    const rt = createToolRuntime({ bindings, baseUrl, store: db.store });
    const out = await rt.call('listNotes', { limit: 3 });
    expect(out.ok).toBe(true);
    expect(seen.map((s) => s.url)).toEqual(['/notes?limit=3']);
  });

  it('a description without the list (a client generated before it) still sends the query as given', async () => {
    const older: OperationDescription = { operation: 'GET /notes', method: 'GET', path: '/notes', mechanism: 'none' };
    const engine = createOperationEngine({ baseUrl });
    await engine.read(older, { query: { limit: 1, expand: 'author' } });
    expect(seen.map((s) => s.url)).toEqual(['/notes?limit=1&expand=author']);
  });
});

describe('a path value that would move the request', () => {
  it.each(['..', '', '%2e%2e'])('%j: refused on both paths with nothing sent and the key free', async (value) => {
    const client = createClient({ baseUrl, store: db.store }) as Record<string, (...a: unknown[]) => Promise<any>>;
    const key = `path-key-${Buffer.from(value).toString('hex')}-000000001`;
    await expect(client.deleteNote!({ path: { note_id: value } }, { key })).rejects.toThrow(InvalidArgumentsError);
    const rt = createToolRuntime({ bindings, baseUrl, store: db.store });
    const out = await rt.call('deleteNote', { note_id: value, idempotency_key: key });
    expect(out).toMatchObject({ ok: false, error: { code: 'invalid_arguments', executed: 'no' } });
    expect(seen).toEqual([]);
    expect(await rowOf(key)).toBeUndefined();
    expect(await rt.call('deleteNote', { note_id: 'a/b', idempotency_key: key })).toMatchObject({ ok: true });
    expect(seen.map((s) => s.url)).toEqual(['/notes/a%2Fb']);
  });
});

describe('tool runtime credentials', () => {
  it('asked once per call (a saga with an inverse too) and sent as the header and the query value', async () => {
    let asked = 0;
    const rt = createToolRuntime({
      bindings,
      baseUrl,
      store: db.store,
      auth: () => {
        asked += 1;
        return { token: `tok-${asked}`, apiKey: 'k-1' };
      },
    });
    const out = await rt.call('createNote', { body: note, notify: false, idempotency_key: 'cred-key-00000000000001' });
    expect(out).toMatchObject({ ok: true, was_replay: false });
    expect(asked).toBe(1);
    expect(seen.map((s) => s.url)).toEqual(['/notes?notify=false&api_key=k-1']);
    expect(seen[0]!.headers.authorization).toBe('Bearer tok-1');
  });
});

describe('generated before the rename (OP-N spellings)', () => {
  it('a client description spelled OP-2 runs as dedup-table: one effect, a replay, the row named', async () => {
    const older: OperationDescription = {
      operation: 'POST /notes',
      method: 'POST',
      path: '/notes',
      mechanism: 'OP-2',
      body: { encoding: 'json' },
    };
    const engine = createOperationEngine({ baseUrl, store: db.store });
    const key = 'op2-client-key-00000000001';
    const first = await engine.write(older, { body: note }, { key });
    const again = await engine.write(older, { body: note }, { key });
    expect([first.wasReplay, again.wasReplay, again.result]).toEqual([false, true, first.result]);
    expect(seen).toHaveLength(1);
    expect((await rowOf(key))?.mechanism).toBe('dedup-table');
  });

  it('a binding spelled OP-2 runs as dedup-table through the tool runtime', async () => {
    const create = bindings.find((b) => b.operation === 'POST /notes')!;
    const older: ToolBinding = { ...create, mechanism: 'OP-2' };
    delete (older as { compensation?: unknown }).compensation;
    const rt = createToolRuntime({ bindings: [older], baseUrl, store: db.store });
    const key = 'op2-tool-key-0000000000001';
    const first = await rt.call(older.names.mcp, { body: note, idempotency_key: key });
    const again = await rt.call(older.names.mcp, { body: note, idempotency_key: key });
    expect([first.ok && first.was_replay, again.ok && again.was_replay]).toEqual([false, true]);
    expect(seen).toHaveLength(1);
    expect((await rowOf(key))?.mechanism).toBe('dedup-table');
  });
});

describe('credentials and the request headers of other case', () => {
  const d: OperationDescription = { operation: 'GET /notes', method: 'GET', path: '/notes', mechanism: 'none' };

  it('a credential replaces a request header that differs only in case; a cookie of any case is joined', () => {
    const req = checkedRequest(
      d,
      { header: { Authorization: 'Bearer from-the-model', 'X-Api-Key': 'model' }, cookie: { a: '1' } },
      {
        headers: { COOKIE: 'b=2' },
        credentials: { headers: { authorization: 'Bearer real', 'x-api-key': 'k', cookie: 's=3' } },
      },
    );
    expect(req.headers).toEqual({ authorization: 'Bearer real', 'x-api-key': 'k', cookie: 'a=1; b=2; s=3' });
  });
});

describe('headers whose names differ only in case, without credentials', () => {
  const d: OperationDescription = { operation: 'GET /notes', method: 'GET', path: '/notes', mechanism: 'none' };
  const input = { header: { 'X-Trace': 'from-spec', Cookie: 'h=0' }, cookie: { a: '1 2' } };

  it('the per-call header replaces the parameter; every cookie goes into one cookie header', () => {
    const req = checkedRequest(d, input, { headers: { 'x-trace': 'per-call', COOKIE: 'b=2' } });
    expect(req.headers).toEqual({ 'x-trace': 'per-call', cookie: 'h=0; a=1%202; b=2' });
  });

  it('on the wire: one x-trace and one cookie header, as a server reads them', async () => {
    const engine = createOperationEngine({ baseUrl });
    await engine.read(d, input, { headers: { 'x-trace': 'per-call', COOKIE: 'b=2' } });
    expect(seen).toHaveLength(1);
    const pairs = seen[0]!.raw.flatMap((v, i, all) => (i % 2 === 0 ? [[v.toLowerCase(), all[i + 1]!]] : []));
    expect(pairs.filter(([n]) => n === 'x-trace')).toEqual([['x-trace', 'per-call']]);
    expect(pairs.filter(([n]) => n === 'cookie')).toEqual([['cookie', 'h=0; a=1%202; b=2']]);
  });
});
