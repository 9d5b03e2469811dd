/**
 * The IR gives every spec version one form (ir/bodies.ts, ir/schemas.ts): the same API written as Swagger 2.0
 * (`body`/`formData` parameters, `x-nullable`, boolean exclusive bounds, `type: file`), as OpenAPI 3.0
 * (`requestBody`, `nullable`) and as OpenAPI 3.1 yields the same request bodies, parameters, classification,
 * client code and tool schemas. Only pointers (`/definitions/…` vs `/components/schemas/…`) may differ.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { classify } from '../../src/classify/index.js';
import type { Plan } from '../../src/classify/types.js';
import { resolveConfig } from '../../src/config/types.js';
import { emitClient } from '../../src/emit/client/index.js';
import { emitTools } from '../../src/emit/tools/index.js';
import { buildApiModel } from '../../src/ir/index.js';
import type { ApiModel, HttpOperation } from '../../src/ir/types.js';
import { loadInputs } from '../../src/load/index.js';

const DIR = resolve(import.meta.dirname, '../fixtures/ir');
const VERSIONS = {
  swagger2: 'swagger2/orders.json',
  openapi30: 'openapi30/orders.yaml',
  openapi31: 'openapi31/orders.yaml',
} as const;
type Version = keyof typeof VERSIONS;

const apis = {} as Record<Version, ApiModel>;
const plans = {} as Record<Version, Plan>;

beforeAll(async () => {
  for (const [version, file] of Object.entries(VERSIONS) as [Version, string][]) {
    const { docs, diagnostics } = await loadInputs([file], { cwd: DIR });
    expect(diagnostics).toEqual([]);
    const built = buildApiModel(docs[0]);
    expect(built.diagnostics).toEqual([]);
    apis[version] = built.api;
    plans[version] = classify([built.api], resolveConfig());
  }
});

/** Drops every `pointer`/`fieldPointers` key: they name places in different documents. */
function withoutPointers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPointers);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'pointer' && k !== 'fieldPointers')
      .map(([k, v]) => [k, withoutPointers(v)]),
  );
}

const op = (version: Version, key: string): HttpOperation =>
  apis[version].operations.find((o) => o.key === key) as HttpOperation;
/** Generated code without comments, which quote pointers and reasons. */
const code = (text: string): string =>
  text
    .split('\n')
    .filter((l) => !/^\s*(\/\*\*|\*|\/\/)/.test(l))
    .join('\n');

describe('one request-body model for Swagger 2.0 and OpenAPI 3.x', () => {
  it('a `body` parameter is the requestBody, with its description, and no parameter', () => {
    const body = op('swagger2', 'POST /orders').requestBody;
    expect(withoutPointers(body)).toEqual({
      required: true,
      description: 'The order to place',
      content: [{ mediaType: 'application/json', schema: { $ref: '#/definitions/NewOrder' } }],
    });
    expect(op('swagger2', 'POST /orders').parameters).toEqual([]);
    expect(op('openapi30', 'POST /orders').requestBody?.description).toBe('The order to place');
  });

  it('`formData` parameters are one object schema under the consumed form type (`type: file` → binary)', () => {
    const upload = op('swagger2', 'POST /uploads');
    expect(upload.parameters).toEqual([]);
    expect(withoutPointers(upload.requestBody)).toEqual({
      required: true,
      content: [
        {
          mediaType: 'multipart/form-data',
          schema: {
            type: 'object',
            properties: {
              file: { type: 'string', format: 'binary' },
              idempotency_key: { type: 'string', maxLength: 64, description: 'Retry with the same token' },
            },
            required: ['file'],
          },
        },
      ],
    });
    expect(upload.requestBody?.content[0].fieldPointers).toEqual({
      file: '/paths/~1uploads/post/parameters/0',
      idempotency_key: '/paths/~1uploads/post/parameters/1',
    });
  });

  for (const version of ['openapi30', 'openapi31'] as const) {
    it(`every operation's parameters and request body equal the ${version} ones`, () => {
      for (const key of ['POST /orders', 'GET /orders/{orderId}', 'POST /uploads', 'PUT /settings']) {
        const [a, b] = [op('swagger2', key), op(version, key)];
        expect(withoutPointers(a.parameters), key).toEqual(withoutPointers(b.parameters));
        // The body of POST /orders is a $ref into each document's own components.
        const refFree = (o: HttpOperation): unknown =>
          JSON.parse(
            JSON.stringify(withoutPointers(o.requestBody) ?? null).replace('#/definitions/', '#/components/schemas/'),
          );
        expect(refFree(a), key).toEqual(refFree(b));
      }
    });
  }
});

describe('schemas in the 3.1 form whatever the version', () => {
  const schema = (version: Version, name: string): unknown => {
    const root = apis[version].root as Record<string, any>;
    return version === 'swagger2' ? root.definitions[name] : root.components.schemas[name];
  };

  it('nullable, x-nullable and boolean exclusive bounds become what 3.1 writes', () => {
    for (const version of Object.keys(VERSIONS) as Version[]) {
      const props = (schema(version, 'NewOrder') as Record<string, any>).properties;
      expect(props.note, version).toEqual({ type: ['string', 'null'] });
      expect(props.priority, version).toEqual({ type: ['string', 'null'], enum: ['low', 'high', null] });
      expect(JSON.stringify(props.discount).replace('#/definitions/', '#/components/schemas/'), version).toBe(
        JSON.stringify({ anyOf: [{ $ref: '#/components/schemas/Discount' }, { type: 'null' }] }),
      );
      expect(props.quantity, version).toEqual({ type: 'integer', exclusiveMinimum: 0 });
      expect(op(version, 'GET /orders/{orderId}').parameters[1].schema, version).toEqual({
        type: 'integer',
        exclusiveMinimum: 0,
      });
    }
  });
});

describe('the classifier and the emitters see one API', () => {
  const plan = (version: Version) =>
    withoutPointers(
      plans[version].apis[0].entries.map((e) => ({
        key: e.operation.key,
        class: e.class,
        mechanism: e.mechanism,
        carrier: e.carrier,
        keyStrategy: e.keyStrategy,
      })),
    );

  it('classification: body key, form key, reads and writes alike', () => {
    const expected = plan('openapi31');
    expect(plan('swagger2')).toEqual(expected);
    expect(plan('openapi30')).toEqual(expected);
    expect(expected).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: 'POST /orders',
          mechanism: 'native-key',
          carrier: expect.objectContaining({ in: 'body', name: 'idempotency_key', maxLength: 64 }),
        }),
        expect.objectContaining({
          key: 'POST /uploads',
          mechanism: 'native-key',
          carrier: expect.objectContaining({ in: 'form', name: 'idempotency_key', maxLength: 64, required: false }),
        }),
      ]),
    );
  });

  it('a form key found in a Swagger 2.0 formData parameter is reported at that parameter', () => {
    const entry = plans.swagger2.apis[0].entries.find((e) => e.operation.key === 'POST /uploads')!;
    expect(entry.reasons.map((r) => r.pointer)).toContain('/paths/~1uploads/post/parameters/1');
  });

  it('the generated client is the same code (comments aside)', () => {
    const client = (version: Version) =>
      code(emitClient(plans[version], resolveConfig()).files.find((f) => f.path.endsWith('orders.gen.ts'))!.contents);
    const expected = client('openapi31');
    expect(client('swagger2')).toBe(expected);
    expect(client('openapi30')).toBe(expected);
    expect(expected).toContain('note?: string | null;');
    expect(expected).toContain('priority?: "low" | "high" | null;');
    expect(expected).toContain('discount?: Discount | null;');
    expect(expected).toMatch(/file: Blob;/);
  });

  it('the tool schemas are the same', () => {
    const tools = (version: Version) =>
      emitTools(plans[version], resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } }))
        .files.filter((f) => f.path.endsWith('.json'))
        .map((f) => [f.path, f.contents]);
    const expected = tools('openapi31');
    expect(expected.length).toBeGreaterThan(0);
    expect(tools('swagger2')).toEqual(expected);
    expect(tools('openapi30')).toEqual(expected);
  });
});
