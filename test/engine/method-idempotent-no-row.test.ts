/**
 * `method-idempotent` keeps no row: its name is 17 characters and the PostgreSQL/MySQL `mechanism` column is
 * VARCHAR(16) on MySQL/MariaDB, so a row would not even fit. Both paths (generated client, tool runtime) run a
 * method-idempotent PUT and DELETE against a real node:http server with a real MariaDB store, a retried attempt
 * included; the dedup and saga tables stay empty.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { emitClient } from '../../src/emit/client/index.js';
import { buildToolBindings } from '../../src/emit/handlers/bindings.js';
import { renderStoreMigration } from '../../src/emit/sql/index.js';
import { createToolRuntime } from '../../packages/runtime/src/tools/index.js';
import { importClient, type ClientFactory } from '../emit/client/helpers/import-client.js';
import { inlinePlan } from '../emit/client/helpers/inline-spec.js';
import { makeStore, type TestStore } from '../runtime/store/stores.js';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const id = { name: 'note_id', in: 'path', required: true, schema: { type: 'string' } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pages', version: '1.0.0' },
  paths: {
    '/notes/{note_id}': {
      put: {
        operationId: 'putNote',
        parameters: [id],
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        responses: ok,
      },
      delete: { operationId: 'deleteNote', parameters: [id], responses: ok },
    },
  },
};

let server: Server;
let baseUrl: string;
let requests = 0;
let t: TestStore;
let createClient: ClientFactory;
let bindings: ReturnType<typeof buildToolBindings>;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      // Every third request fails with 503: the method-idempotent call is retried, still keyless and rowless.
      if (requests % 3 === 1) res.writeHead(503).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const plan = await inlinePlan('engine-method-idempotent', 'pages.json', SPEC, {
    'PUT /notes/{note_id}': { mechanism: 'method-idempotent', keyStrategy: null },
    'DELETE /notes/{note_id}': { mechanism: 'method-idempotent', keyStrategy: null },
  });
  bindings = buildToolBindings(plan, resolveConfig());
  const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
  const path = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'))!.path;
  createClient = await importClient('engine-method-idempotent', files, path, 'createPagesClient');
  t = await makeStore('mysql', inject('pgUrl'), 'mi_norow');
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function rows(table: string): Promise<number> {
  const conn = await mysql.createConnection(t.location.url!);
  try {
    const [r] = await conn.query(`SELECT count(*) AS n FROM \`${t.location.database}\`.\`${table}\``);
    return Number((r as { n: number }[])[0]!.n);
  } finally {
    await conn.end();
  }
}

it('the name does not fit the mechanism column, and no path ever writes a row for it', async () => {
  const ddl = renderStoreMigration('mysql', resolveConfig().sql, { saga: true }).up;
  expect(ddl).toMatch(/`mechanism`\s+VARCHAR\(16\)/);
  expect('method-idempotent'.length).toBe(17);

  const fast = { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } };
  const client = createClient({ baseUrl, store: t.store, ...fast }) as Record<string, (...a: unknown[]) => any>;
  await client.putNote!({ path: { note_id: 'n1' }, body: { text: 'a' } });
  await client.deleteNote!({ path: { note_id: 'n1' } });
  const rt = createToolRuntime({ bindings, baseUrl, store: t.store, ...fast });
  expect(await rt.call('putNote', { note_id: 'n2', body: { text: 'b' } })).toMatchObject({ ok: true });
  expect(await rt.call('deleteNote', { note_id: 'n2' })).toMatchObject({ ok: true });

  expect(requests).toBeGreaterThan(4); // retried attempts happened
  expect(await rows(t.location.table)).toBe(0);
  expect(await rows(t.location.sagaTable)).toBe(0);
});
