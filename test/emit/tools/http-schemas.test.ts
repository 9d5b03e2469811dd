/** OpenAPI operations → tool input schemas: parameters, body, auth, carriers, $defs, cycles, strict rewrite. */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitTools } from '../../../src/emit/tools/index.js';
import type { Parameter } from '../../../src/ir/types.js';
import { compileError, createAjv } from './ajv.js';
import { checkStrictSchema } from './openai-strict.js';
import { entry, httpOp, planOf } from '../../helpers/plan.js';

type Obj = Record<string, any>;

const root = {
  openapi: '3.0.3',
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    schemas: {
      Node: {
        type: 'object',
        properties: {
          name: { type: 'string', nullable: true },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
        required: ['children'],
      },
      Unused: { type: 'string' },
      Charge: {
        type: 'object',
        properties: {
          amount: { type: 'integer', format: 'int32', minimum: 0, exclusiveMinimum: true },
          note: { type: 'string', maxLength: 500, example: 'thanks' },
          metadata: { type: 'object', additionalProperties: { type: 'string' } },
          tree: { $ref: '#/components/schemas/Node' },
        },
        required: ['amount'],
        'x-internal': true,
      },
    },
  },
};

const p = (name: string, where: Parameter['in'], required = false, schema: Obj = { type: 'string' }): Parameter => ({
  name,
  in: where,
  required,
  schema,
  pointer: `/p/${name}`,
});

const createCharge = httpOp('post', '/v1/customers/{id}/charges', {
  operationId: 'customers/create-charge',
  summary: 'Create a charge',
  parameters: [
    p('id', 'path', true),
    p('expand', 'query'),
    p('id', 'header'),
    p('X-Api-Key', 'header', true),
    p('Idempotency-Key', 'header'),
    p('Content-Type', 'header'),
  ],
  requestBody: {
    required: true,
    pointer: '/rb',
    content: [{ mediaType: 'application/json', schema: { $ref: '#/components/schemas/Charge' }, pointer: '/rb/c' }],
  },
});
const getCharge = httpOp('get', '/v1/charges/{id}', { operationId: 'getCharge', parameters: [p('id', 'path', true)] });

const plan = planOf(
  'payments',
  [
    entry(getCharge, 'none'),
    entry(createCharge, 'native-key', {
      carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'], maxLength: 64 },
      ttlSeconds: 7 * 86_400,
    }),
  ],
  root,
  'openapi3.0',
);

const res = emitTools(plan, resolveConfig({ tools: { mcpHeader: true, formats: ['mcp', 'openai', 'anthropic'] } }));
const file = (path: string): any => JSON.parse(res.files.find((f) => f.path === path)?.contents ?? 'null');
const mcpTools = file('tools/mcp/payments.tools.json').tools as Obj[];
const mcpCreate = mcpTools.find((t) => t.name === 'customersCreateCharge') as Obj;

describe('OpenAPI operation → MCP input schema', () => {
  it('lays out params, then the body, without auth, ignored headers or the native key carrier', () => {
    const s = mcpCreate.inputSchema;
    expect(Object.keys(s.properties)).toEqual(['id', 'expand', 'header_id', 'body', 'idempotency_key']);
    expect(s.required).toEqual(['id', 'body', 'idempotency_key']);
    expect(s.additionalProperties).toBe(false);
    expect(s.properties.body).toEqual({ $ref: '#/$defs/Charge' });
  });

  it('copies only reachable components into $defs, cycle-safe, in 2020-12 spelling', () => {
    const defs = mcpCreate.inputSchema.$defs;
    expect(Object.keys(defs)).toEqual(['Charge', 'Node']);
    expect(defs.Node.properties.children.items).toEqual({ $ref: '#/$defs/Node' });
    expect(defs.Node.properties.name.type).toEqual(['string', 'null']);
    expect(defs.Charge.properties.amount).toEqual({ type: 'integer', format: 'int32', exclusiveMinimum: 0 });
    expect(defs.Charge.properties.note.examples).toEqual(['thanks']);
    expect(defs.Charge['x-internal']).toBeUndefined();
    expect(compileError(createAjv(), mcpCreate.inputSchema)).toBeUndefined();
  });

  it('bounds the key by the carrier, states a 7-day window and marks x-mcp-header in MCP only', () => {
    const key = mcpCreate.inputSchema.properties.idempotency_key;
    expect(key.maxLength).toBe(64);
    expect(key.description).toContain('7 days');
    expect(key['x-mcp-header']).toBe('Idempotency-Key');
    const anthropic = (file('tools/anthropic/payments.tools.json') as Obj[]).find(
      (t) => t.name === 'customersCreateCharge',
    ) as Obj;
    expect(anthropic.input_schema.properties.idempotency_key['x-mcp-header']).toBeUndefined();
    expect(mcpCreate.annotations).toEqual({
      title: 'Create a charge',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
  });
});

describe('OpenAPI operation → OpenAI strict parameters', () => {
  const fn = (file('tools/openai/payments.tools.json') as Obj[])
    .map((t) => t.function)
    .find((f) => f.name === 'customersCreateCharge');

  it('passes the strict checker and keeps recursion through $defs', () => {
    expect(checkStrictSchema(fn.parameters)).toEqual([]);
    expect(fn.parameters.$defs.Node.properties.children.items).toEqual({ $ref: '#/$defs/Node' });
    expect(fn.parameters.properties.expand).toEqual({ type: ['string', 'null'] });
    expect(fn.parameters.properties.idempotency_key.pattern).toBe('^[!-~]{16,64}$');
  });

  it('rewrites what strict mode lacks and reports free-form objects as JSON-encoded', () => {
    const charge = fn.parameters.$defs.Charge;
    expect(charge.properties.amount).toEqual({ type: 'integer', exclusiveMinimum: 0 });
    expect(charge.properties.note).toEqual({ type: ['string', 'null'] });
    expect(charge.properties.metadata.type).toEqual(['string', 'null']);
    expect(charge.properties.tree).toEqual({ anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] });
    const warn = res.diagnostics.find((d) => d.code === 'tools_openai_json_encoded');
    expect(warn?.message).toContain('/$defs/Charge/properties/metadata');
  });

  it('writes sanitized names with a reverse map to the operation key', () => {
    expect(file('tools/openai/payments.names.json')).toEqual({
      customersCreateCharge: 'POST /v1/customers/{id}/charges',
      getCharge: 'GET /v1/charges/{id}',
    });
  });

  it('is byte-identical when emitted twice', () => {
    const again = emitTools(
      plan,
      resolveConfig({ tools: { mcpHeader: true, formats: ['mcp', 'openai', 'anthropic'] } }),
    );
    expect(again.files).toEqual(res.files);
  });
});

describe('a native key carried in the JSON body', () => {
  const payoutRoot = {
    openapi: '3.1.0',
    components: {
      schemas: {
        Payout: {
          type: 'object',
          properties: { amount: { type: 'integer' }, idempotency_key: { type: 'string' } },
          required: ['amount', 'idempotency_key'],
        },
      },
    },
  };
  const payout = httpOp('post', '/payouts', {
    operationId: 'createPayout',
    requestBody: {
      required: true,
      pointer: '/rb',
      content: [{ mediaType: 'application/json', schema: { $ref: '#/components/schemas/Payout' }, pointer: '/rb/c' }],
    },
  });
  const out = emitTools(
    planOf(
      'payouts',
      [
        entry(payout, 'native-key', {
          carrier: { in: 'body', name: 'idempotency_key', path: ['idempotency_key'], maxLength: 64 },
        }),
      ],
      payoutRoot,
      'openapi3.1',
    ),
    resolveConfig(),
  );
  const tool = JSON.parse(out.files.find((f) => f.path === 'tools/mcp/payouts.tools.json')!.contents).tools[0] as Obj;

  it('asks for the key once, at the top level, and drops the body field from a copy of the definition', () => {
    expect(tool.inputSchema.properties.body).toEqual({
      type: 'object',
      properties: { amount: { type: 'integer' } },
      required: ['amount'],
    });
    expect(tool.inputSchema.properties.idempotency_key.maxLength).toBe(64);
    expect(tool.inputSchema.$defs).toBeUndefined();
  });
});
