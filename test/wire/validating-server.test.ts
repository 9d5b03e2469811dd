/**
 * The harness's validating server catches what it is there to catch: each kind of non-conformant request
 * below is sent with plain fetch and must be reported with its category and the validator's words, and a
 * conformant one must pass. (Otherwise a 100 % table could mean a validator that accepts everything.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startValidatingServer, type ValidatingServer } from './helpers/validating-server.js';

const spec = {
  openapi: '3.0.3',
  info: { title: 'probe', version: '1' },
  paths: {
    '/items/{item_id}': {
      get: {
        parameters: [
          { name: 'item_id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } },
          {
            name: 'tags',
            in: 'query',
            style: 'form',
            explode: false,
            schema: { type: 'array', items: { type: 'string' } },
          },
          {
            name: 'filter',
            in: 'query',
            style: 'deepObject',
            schema: { type: 'object', properties: { kind: { type: 'string' } } },
          },
          { name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'integer' } } },
          { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string', pattern: '^t-[0-9]+$' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/items': {
      post: {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string' }, count: { type: 'integer' } },
              },
            },
          },
        },
        responses: { '201': { description: 'created' } },
      },
    },
    '/forms': {
      post: {
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['amount'],
                properties: {
                  amount: { type: 'integer' },
                  metadata: { type: 'object', additionalProperties: { type: 'string' } },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

let server: ValidatingServer;
beforeAll(async () => {
  server = await startValidatingServer(spec);
});
afterAll(() => server.close());

async function send(path: string, init: RequestInit = {}) {
  const before = server.received.length;
  const res = await fetch(`${server.url}${path}`, init);
  expect(await res.json()).toMatchObject({ id: expect.any(String) });
  expect(server.received).toHaveLength(before + 1);
  return server.received.at(-1)!;
}

const trace = { 'x-trace': 't-1' };

describe('validating server (openapi-backend)', () => {
  it('a conformant GET with form, non-exploded and deepObject query parameters passes, routed to its operation', async () => {
    const r = await send('/items/a%20b?limit=5&tags=x,y&ids=1&ids=2&filter[kind]=big', { headers: trace });
    expect(r).toMatchObject({ matched: 'GET /items/{item_id}', errors: [] });
  });

  it.each([
    ['a query value of the wrong type', '/items/a?limit=lots', trace, 'query', 'query/limit: must be integer'],
    ['a query value out of range', '/items/a?limit=500', trace, 'query', 'query/limit: must be <= 100'],
    [
      'an undeclared query parameter',
      '/items/a?limitt=5',
      trace,
      'query',
      'query: must NOT have additional properties (limitt)',
    ],
    [
      'a form-style array sent with bracket indexes',
      '/items/a?ids[0]=1&ids[1]=2',
      trace,
      'query',
      'must NOT have additional properties (ids[0])',
    ],
    ['a missing required header', '/items/a', {}, 'header', "must have required property 'x-trace'"],
    ['a header against its pattern', '/items/a', { 'x-trace': 'nope' }, 'header', 'must match pattern'],
    ['a path no template matches', '/items/a/b', trace, 'route', 'no operation of the spec matches GET /items/a/b'],
    ['an empty path segment', '/items/', trace, 'route', 'no operation of the spec matches'],
  ])('%s is reported', async (_, path, headers, category, said) => {
    const r = await send(path, { headers });
    expect(r.categories).toContain(category);
    expect(r.errors.join('\n')).toContain(said);
  });

  it('JSON bodies: schema, required body, content type, and no string-for-integer leniency', async () => {
    const json = { 'content-type': 'application/json' };
    expect(await send('/items', { method: 'POST', headers: json, body: '{"name":"a","count":2}' })).toMatchObject({
      matched: 'POST /items',
      errors: [],
    });
    const typed = await send('/items', { method: 'POST', headers: json, body: '{"name":"a","count":"2"}' });
    expect(typed.errors).toEqual(['requestBody/count: must be integer']);
    const missing = await send('/items', { method: 'POST', headers: json, body: '{"count":2}' });
    expect(missing.errors).toEqual(["requestBody: must have required property 'name'"]);
    const none = await send('/items', { method: 'POST' });
    expect(none.errors).toEqual(["must have required property 'requestBody'"]);
    const wrong = await send('/items', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'name' });
    expect(wrong.categories).toContain('content-type');
  });

  it('form bodies are decoded (nested brackets, numbers from text); a body on an operation without one is reported', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const ok = await send('/forms', { method: 'POST', headers: form, body: 'amount=12&metadata[order]=42' });
    expect(ok).toMatchObject({ matched: 'POST /forms', errors: [] });
    const bad = await send('/forms', { method: 'POST', headers: form, body: 'amount=twelve' });
    expect(bad.errors).toEqual(['requestBody/amount: must be integer']);
    const stray = await send('/items/a', { method: 'DELETE', headers: form, body: 'x=1' });
    expect(stray.categories).toContain('route');
  });
});
