/**
 * Typed error responses: each operation's entry in the errors map (status → body) from the spec's non-2xx and `default`
 * responses, and `Client.errorOf(operation, err)` handing back the `HttpStatusError` a call rejected with,
 * its parsed body typed by that map. Driven against a real node:http server and type-checked under --strict.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import type { EmittedFile } from '../../../src/emit/types.js';
import { HttpStatusError } from '../../../packages/runtime/src/index.js';
import { typeCheck, writeBatch } from './helpers/compile.js';
import { importClient } from './helpers/import-client.js';
import { inlinePlan } from './helpers/inline-spec.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Errors fixture', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: { description: 'ok', ...json({ $ref: '#/components/schemas/Thing' }) },
          404: { description: 'missing', ...json({ $ref: '#/components/schemas/NotFound' }) },
          409: {
            description: 'conflict',
            ...json({ type: 'object', required: ['holder'], properties: { holder: { type: 'string' } } }),
          },
          '5XX': { description: 'down', content: { 'text/plain': { schema: { type: 'string' } } } },
          410: { description: 'gone, no body' },
        },
      },
    },
    '/plain': {
      get: { operationId: 'getPlain', responses: { 200: { description: 'ok', ...json({ type: 'string' }) } } },
    },
    '/loose': {
      get: {
        operationId: 'getLoose',
        responses: {
          200: { description: 'ok', ...json({ type: 'string' }) },
          default: { description: 'any', ...json({ $ref: '#/components/schemas/NotFound' }) },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      NotFound: { type: 'object', required: ['missing'], properties: { missing: { type: 'string' } } },
    },
  },
};

let files: EmittedFile[];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const plan = await inlinePlan('error-types', 'errors.json', SPEC, {});
  files = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig()).files;
  server = createServer((req, res) => {
    if (req.url === '/things/gone')
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ missing: 'gone' }));
    else res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = () => files.find((f) => f.path === 'client/errors.gen.ts')!.contents;

describe('errors map', () => {
  it("gives each operation's entry every declared non-2xx status with its body; one that declares none is Record<never, never>", () => {
    expect(client()).toContain(
      [
        '  "GET /things/{id}": {',
        '    404: NotFound;',
        '    409: {',
        '      holder: string;',
        '    };',
        '    410: unknown;',
        '    "5XX": string;',
        '  };',
      ].join('\n'),
    );
    expect(client()).toContain('  "GET /loose": { default: NotFound };');
    expect(client()).not.toMatch(/export type \w+Errors = \{\n\s+(404|default)/);
    expect(client()).toContain('  "GET /plain": Record<never, never>;');
  });
});

describe('errorOf', () => {
  it('hands back the status error of that operation with its parsed body, and nothing for another operation', async () => {
    const create = await importClient('error-types-run', files, 'client/errors.gen.ts', 'createErrorsClient');
    const cls = (await import(`${process.cwd()}/test/emit/client/__out__/error-types-run/errors.gen.ts`))
      .ErrorsClient as {
      errorOf(operation: string, err: unknown): HttpStatusError | undefined;
    };
    const c = create({ baseUrl, retry: { attempts: 1 } });
    const missing = await c.getThing!({ path: { id: 'gone' } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(HttpStatusError);
    const typed = cls.errorOf('GET /things/{id}', missing);
    expect(typed?.status).toBe(404);
    expect(typed?.body).toEqual({ missing: 'gone' });
    expect(cls.errorOf('GET /plain', missing)).toBeUndefined();
    expect(cls.errorOf('GET /things/{id}', new Error('not http'))).toBeUndefined();
    const down = await c.getThing!({ path: { id: 'x' } }).catch((e: unknown) => e);
    expect(cls.errorOf('GET /things/{id}', down)?.body).toBe('maintenance');
  });

  it('narrows the body by status under --strict', () => {
    const proof = [
      'import { ErrorsClient } from "./errors.gen.js";',
      'export function describe(err: unknown): string {',
      '  const e = ErrorsClient.errorOf("GET /things/{id}", err);',
      '  if (e === undefined) return "other";',
      '  if (e.status === 404) return e.body.missing;',
      '  if (e.status === 409) return e.body.holder;',
      '  if (e.status === 503) return e.body.toUpperCase();',
      '  // @ts-expect-error 5XX covers 500 … 599 only',
      '  if (e.status === 600) return e.body;',
      '  // @ts-expect-error a 409 body has no `missing`',
      '  if (e.status === 409) return e.body.missing;',
      '  const loose = ErrorsClient.errorOf("GET /loose", err);',
      '  if (loose !== undefined) return loose.body.missing + String(loose.status);',
      '  const plain = ErrorsClient.errorOf("GET /plain", err);',
      '  // @ts-expect-error no declared error body: it stays unknown',
      '  if (plain !== undefined) return plain.body.missing;',
      '  // @ts-expect-error only the operation keys of this client',
      '  return String(ErrorsClient.errorOf("GET /nope", err));',
      '}',
    ].join('\n');
    const paths = writeBatch(
      'error-types-compile',
      new Map([
        ['errors.gen.ts', client()],
        ['proof.ts', proof],
      ]),
    );
    expect(typeCheck(paths)).toEqual(
      new Map([
        ['errors.gen.ts', []],
        ['proof.ts', []],
      ]),
    );
  });
});
