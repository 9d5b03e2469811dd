import { describe, expect, it } from 'vitest';
import { buildApiModel } from '../../src/ir/index.js';
import type { HttpOperation } from '../../src/ir/types.js';
import { docOf, ok } from './helpers.js';

function http(api: { operations: unknown[] }, key: string): HttpOperation {
  const op = (api.operations as HttpOperation[]).find((o) => o.key === key);
  if (!op) throw new Error(`no ${key}`);
  return op;
}

describe('buildApiModel: OpenAPI 3', () => {
  const root = {
    openapi: '3.0.3',
    info: { title: 'Pay', version: 2 },
    servers: [{ url: 'https://{region}.pay.example/v1', variables: { region: { default: 'eu' } } }],
    security: [{ key: [] }],
    components: {
      parameters: { Key: { name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } } },
      requestBodies: {
        Charge: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Charge' } } },
        },
      },
      responses: {
        Created: {
          description: 'made',
          headers: { Location: {} },
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
      schemas: { Charge: { type: 'object' } },
    },
    paths: {
      '/v1/charges': {
        'x-path-ext': 1,
        servers: [{ url: 'https://path.example' }],
        parameters: [
          { name: 'trace', in: 'header', schema: { type: 'string' } },
          { name: 'X-Mode', in: 'header', schema: { type: 'string' }, description: 'path level' },
        ],
        post: {
          operationId: 'createCharge',
          tags: ['charges'],
          'x-idempotency': { header: 'Idempotency-Key' },
          parameters: [
            { $ref: '#/components/parameters/Key' },
            { name: 'x-mode', in: 'header', description: 'operation level' },
          ],
          requestBody: { $ref: '#/components/requestBodies/Charge' },
          responses: {
            '201': { $ref: '#/components/responses/Created' },
            default: { description: 'error' },
            'x-ignored': {},
          },
          callbacks: { done: { '{$request.body#/url}': { post: { operationId: 'chargeDone', ...ok } } } },
        },
        get: { servers: [{ url: 'https://op.example' }], security: [], ...ok },
      },
      '/v1/charges/{id}': { delete: ok, 'x-not-a-method': {}, summary: 'one charge' },
    },
    webhooks: { chargeSucceeded: { post: ok } },
  };
  const { api, diagnostics } = buildApiModel(docOf(root, 'specs/payments.openapi.yaml'));

  it('one sorted operation per path + method; webhooks and callbacks are events', () => {
    expect(diagnostics).toEqual([]);
    expect(api.operations.map((o) => [o.key, o.name])).toEqual([
      ['DELETE /v1/charges/{id}', 'deleteV1ChargesById'],
      ['GET /v1/charges', 'getV1Charges'],
      ['POST /v1/charges', 'createCharge'],
    ]);
    expect(api.events.map((e) => [e.kind, e.key, e.name])).toEqual([
      ['callback', 'POST callback:POST /v1/charges#done {$request.body#/url}', 'chargeDone'],
      ['webhook', 'POST webhook:chargeSucceeded', 'postChargeSucceeded'],
    ]);
    expect(api).toMatchObject({
      id: 'payments',
      title: 'Pay',
      version: '2',
      format: 'openapi3.0',
      servers: ['https://eu.pay.example/v1'],
    });
  });

  it('parameters: path level merged, operation wins by name+in (headers case-insensitive), refs followed', () => {
    const post = http(api, 'POST /v1/charges');
    expect(post.parameters.map((p) => [p.in, p.name, p.description, p.ref, p.pointer])).toEqual([
      ['header', 'trace', undefined, undefined, '/paths/~1v1~1charges/parameters/0'],
      ['header', 'x-mode', 'operation level', undefined, '/paths/~1v1~1charges/post/parameters/1'],
      ['header', 'Idempotency-Key', undefined, '#/components/parameters/Key', '/components/parameters/Key'],
    ]);
  });

  it('request body and responses through $ref, content kept with pointers', () => {
    const post = http(api, 'POST /v1/charges');
    expect(post.requestBody).toEqual({
      required: true,
      pointer: '/components/requestBodies/Charge',
      content: [
        {
          mediaType: 'application/json',
          schema: { $ref: '#/components/schemas/Charge' },
          pointer: '/components/requestBodies/Charge/content/application~1json',
        },
      ],
    });
    expect(
      post.responses.map((r) => [r.status, r.description, r.headers, r.content.map((c) => c.mediaType), r.pointer]),
    ).toEqual([
      ['201', 'made', ['Location'], ['application/json'], '/components/responses/Created'],
      ['default', 'error', [], [], '/paths/~1v1~1charges/post/responses/default'],
    ]);
  });

  it('servers operation > path > root; security operation > root; tags, extensions, path extensions', () => {
    const post = http(api, 'POST /v1/charges');
    const get = http(api, 'GET /v1/charges');
    const del = http(api, 'DELETE /v1/charges/{id}');
    expect([get.servers, post.servers, del.servers]).toEqual([
      ['https://op.example'],
      ['https://path.example'],
      ['https://eu.pay.example/v1'],
    ]);
    expect([get.security, post.security]).toEqual([[], [{ key: [] }]]);
    expect(post).toMatchObject({
      tags: ['charges'],
      extensions: { 'x-idempotency': { header: 'Idempotency-Key' } },
      pathExtensions: { 'x-path-ext': 1 },
    });
    expect(post.source).toEqual({ file: 'specs/payments.openapi.yaml', pointer: '/paths/~1v1~1charges/post' });
    expect(del.summary).toBe('one charge');
  });
});

describe('buildApiModel: Swagger 2.0', () => {
  const root = {
    swagger: '2.0',
    info: { title: 'Inv', version: '1' },
    host: 'api.inv.example',
    basePath: '/v2',
    schemes: ['https', 'http'],
    consumes: ['application/json', 'application/xml'],
    produces: ['application/json'],
    parameters: { Limit: { name: 'limit', in: 'query', type: 'integer', minimum: 1 } },
    paths: {
      '/items': {
        get: {
          parameters: [{ $ref: '#/parameters/Limit' }],
          responses: { '200': { description: 'ok', schema: { type: 'array' } } },
        },
        post: {
          parameters: [{ name: 'item', in: 'body', required: true, schema: { $ref: '#/definitions/Item' } }],
          ...ok,
        },
      },
      '/upload': {
        post: {
          schemes: ['wss'],
          consumes: ['multipart/form-data'],
          parameters: [
            { name: 'file', in: 'formData', type: 'file', required: true },
            { name: 'client_token', in: 'formData', type: 'string' },
          ],
          ...ok,
        },
      },
      '/form': {
        put: { consumes: ['application/json'], parameters: [{ name: 'a', in: 'formData', type: 'string' }], ...ok },
      },
    },
    definitions: { Item: { type: 'object' } },
  };
  const { api, diagnostics } = buildApiModel(docOf(root, 'specs/inventory.swagger.json'));
  const get = (key: string) => http(api, key);

  it('servers from schemes + host + basePath (operation schemes win)', () => {
    expect(diagnostics).toEqual([]);
    expect(api.servers).toEqual(['https://api.inv.example/v2', 'http://api.inv.example/v2']);
    expect(get('POST /upload').servers).toEqual(['wss://api.inv.example/v2']);
  });

  it('inline parameter schemas and $ref to #/parameters', () => {
    expect(get('GET /items').parameters).toEqual([
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1 },
        pointer: '/parameters/Limit',
        ref: '#/parameters/Limit',
      },
    ]);
    expect(get('GET /items').responses[0].content).toEqual([
      { mediaType: 'application/json', schema: { type: 'array' }, pointer: '/paths/~1items/get/responses/200/schema' },
    ]);
  });

  it('body parameter → requestBody per consumes media type', () => {
    expect(get('POST /items').requestBody).toEqual({
      required: true,
      pointer: '/paths/~1items/post/parameters/0',
      // The parameter holds `schema` as a 3.x Media Type Object does.
      content: ['application/json', 'application/xml'].map((mediaType) => ({
        mediaType,
        schema: { $ref: '#/definitions/Item' },
        pointer: '/paths/~1items/post/parameters/0',
      })),
    });
    expect(get('POST /items').parameters).toEqual([]);
  });

  it('formData parameters → an object schema under the form media types', () => {
    const body = get('POST /upload').requestBody!;
    expect(body.content.map((c) => c.mediaType)).toEqual(['multipart/form-data']);
    expect(body.content[0].schema).toEqual({
      type: 'object',
      properties: { file: { type: 'string', format: 'binary' }, client_token: { type: 'string' } },
      required: ['file'],
    });
    expect(body.content[0].fieldPointers).toEqual({
      file: '/paths/~1upload/post/parameters/0',
      client_token: '/paths/~1upload/post/parameters/1',
    });
    expect(get('POST /upload').parameters).toEqual([]);
    expect(get('PUT /form').requestBody!.content.map((c) => c.mediaType)).toEqual([
      'application/x-www-form-urlencoded',
    ]);
  });
});

describe('buildApiModel: duplicate operationIds and odd documents', () => {
  it('duplicate operationIds → warning with the pointer, deterministic suffixes, never an overwrite', () => {
    const root = {
      openapi: '3.1.0',
      paths: {
        '/b': { post: { operationId: 'create', ...ok } },
        '/a': { post: { operationId: 'create', ...ok }, put: { operationId: 'create', ...ok } },
      },
    };
    const { api, diagnostics } = buildApiModel(docOf(root));
    expect(api.operations.map((o) => [o.key, o.name])).toEqual([
      ['POST /a', 'create'],
      ['POST /b', 'create2'],
      ['PUT /a', 'create3'],
    ]);
    expect(diagnostics.map((d) => [d.code, d.severity, d.pointer])).toEqual([
      ['duplicate_operation_id', 'warning', '/paths/~1b/post/operationId'],
      ['duplicate_operation_id', 'warning', '/paths/~1a/put/operationId'],
      ['operation_name_collision', 'warning', '/paths/~1b/post/operationId'],
      ['operation_name_collision', 'warning', '/paths/~1a/put/operationId'],
    ]);
  });

  it('operation_name_collision: a synthesized name that collides with an operationId yields to it', () => {
    const root = { openapi: '3.0.0', paths: { '/users': { get: ok, post: { operationId: 'getUsers', ...ok } } } };
    const { api } = buildApiModel(docOf(root));
    expect(api.operations.map((o) => o.name)).toEqual(['getUsers2', 'getUsers']);
  });

  it('path item $ref, non-object operations and bad parameters are diagnostics, not crashes', () => {
    const root = {
      openapi: '3.1.0',
      components: { pathItems: { Shared: { get: ok } } },
      paths: {
        '/shared': { $ref: '#/components/pathItems/Shared' },
        '/bad': { post: 'nope', get: { parameters: [{ in: 'query' }], ...ok } },
        '/null': null,
      },
    };
    const { api, diagnostics } = buildApiModel(docOf(root));
    expect(api.operations.map((o) => [o.key, o.source.pointer])).toEqual([
      ['GET /bad', '/paths/~1bad/get'],
      ['GET /shared', '/components/pathItems/Shared/get'],
    ]);
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['invalid_operation', '/paths/~1bad/post'],
      ['invalid_parameter', '/paths/~1bad/get/parameters/0'],
      ['invalid_path_item', '/paths/~1null'],
    ]);
  });

  it('a document without paths has no operations and no diagnostics', () => {
    const { api, diagnostics } = buildApiModel(
      docOf({ openapi: '3.1.0', info: { title: 'hooks only', version: '1' } }),
    );
    expect([api.operations, api.events, diagnostics]).toEqual([[], [], []]);
  });
});
