/**
 * Each query parameter reaches the API in its declared style, through the generated client and
 * through the tool runtime alike — OpenAPI 3 `form` (exploded by default, or not), `spaceDelimited`,
 * `pipeDelimited`, `deepObject`, a scalar, and Swagger 2.0 `collectionFormat` (csv by default, multi,
 * pipes). A real node:http server on 127.0.0.1 records the raw request line.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiPlan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { createToolRuntime, type ToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { importClient, type ClientFactory } from '../../emit/client/helpers/import-client.js';
import { inlinePlan } from '../../emit/client/helpers/inline-spec.js';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const list = { type: 'array', items: { type: 'string' } };
const obj = { type: 'object', properties: { gt: { type: 'integer' }, lt: { type: 'integer' } } };

const V3 = {
  openapi: '3.0.3',
  info: { title: 'styles', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        parameters: [
          { name: 'tag', in: 'query', schema: list },
          { name: 'csv', in: 'query', schema: list, explode: false },
          { name: 'ssv', in: 'query', schema: list, style: 'spaceDelimited' },
          { name: 'pipes', in: 'query', schema: list, style: 'pipeDelimited' },
          { name: 'filter', in: 'query', schema: obj, style: 'deepObject', explode: true },
          { name: 'range', in: 'query', schema: obj },
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
        ],
        responses: ok,
      },
    },
  },
};

const V2 = {
  swagger: '2.0',
  info: { title: 'legacy styles', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listOld',
        parameters: [
          { name: 'ids', in: 'query', type: 'array', items: { type: 'string' } },
          { name: 'multi', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
          { name: 'pipes', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'pipes' },
        ],
        responses: { '200': { description: 'ok', schema: { type: 'object' } } },
      },
    },
  },
};

const V3_ARGS = {
  tag: ['a', 'b c'],
  csv: ['x,y', 'z'],
  ssv: ['s', 't'],
  pipes: ['p', 'q'],
  filter: { gt: 1 },
  range: { gt: 2, lt: 9 },
  limit: 5,
};
const V3_QUERY = 'tag=a&tag=b+c&csv=x%2Cy,z&ssv=s%20t&pipes=p|q&filter%5Bgt%5D=1&gt=2&lt=9&limit=5';
const V2_ARGS = { ids: ['1', '2'], multi: ['m', 'n'], pipes: ['p', 'q'] };
const V2_QUERY = 'ids=1,2&multi=m&multi=n&pipes=p|q';

let server: Server;
let baseUrl: string;
const urls: string[] = [];
const setups: Record<string, { plan: ApiPlan; client: ClientFactory; rt: ToolRuntime }> = {};

async function setup(dir: string, spec: unknown, factory: string) {
  const plan = await inlinePlan(dir, 'spec.json', spec, {});
  const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
  const path = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'))!.path;
  const client = await importClient(dir, files, path, factory);
  const rt = createToolRuntime({ bindings: buildToolBindings(plan, resolveConfig()), baseUrl });
  return { plan, client, rt };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    urls.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setups.v3 = await setup('query-style-v3', V3, 'createSpecClient');
  setups.v2 = await setup('query-style-v2', V2, 'createSpecClient');
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('query parameters in their declared style', () => {
  it.each([
    ['v3', 'listItems', V3_ARGS, V3_QUERY],
    ['v2', 'listOld', V2_ARGS, V2_QUERY],
  ] as const)('%s: the client and the tool send the same, declared query', async (v, method, args, query) => {
    const { client, rt } = setups[v]!;
    urls.length = 0;
    await client({ baseUrl })[method]!({ query: args });
    const out = await rt.call(method, { ...args });
    expect((out as { isError?: boolean }).isError ?? false).toBe(false);
    expect(urls).toEqual([`/items?${query}`, `/items?${query}`]);
  });

  it('the generated client names only the non-bracket, non-scalar parameters', () => {
    const files = emitClient({ apis: [setups.v3!.plan], diagnostics: [] }, resolveConfig()).files;
    const text = files.find((f) => f.path.endsWith('.gen.ts') && f.path.startsWith('client/'))!.contents;
    expect(text).toContain('queryStyles: { tag: "multi", csv: "csv", ssv: "ssv", pipes: "pipes", range: "multi" }');
  });
});
