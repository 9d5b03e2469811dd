/** ir/schemas.ts: every Schema Object in the 3.1 form, copy on write, nothing inlined. */
import { describe, expect, it } from 'vitest';
import { normalizeSchemas } from '../../src/ir/schemas.js';

const doc30 = (schemas: Record<string, unknown>) => ({ openapi: '3.0.3', paths: {}, components: { schemas } });
const schemasOf = (out: unknown) => (out as { components: { schemas: Record<string, unknown> } }).components.schemas;
const one = (schema: unknown) => schemasOf(normalizeSchemas(doc30({ S: schema }), 'openapi3.0')).S;

describe('nullable → the 3.1 form', () => {
  it.each([
    [
      'a typed schema: null joins the type',
      { type: 'string', nullable: true, maxLength: 3 },
      { type: ['string', 'null'], maxLength: 3 },
    ],
    [
      'an enum: null joins it too',
      { type: 'string', enum: ['a'], nullable: true },
      { type: ['string', 'null'], enum: ['a', null] },
    ],
    [
      'a $ref: anyOf with null, annotations outside',
      { $ref: '#/components/schemas/T', description: 'd', nullable: true },
      { description: 'd', anyOf: [{ $ref: '#/components/schemas/T' }, { type: 'null' }] },
    ],
    [
      'a lone oneOf: a null alternative',
      { oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
      { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
    ],
    [
      'allOf: wrapped',
      { allOf: [{ $ref: '#/components/schemas/T' }], title: 't', nullable: true },
      { title: 't', anyOf: [{ allOf: [{ $ref: '#/components/schemas/T' }] }, { type: 'null' }] },
    ],
    ['nothing constrained: null is already allowed', { description: 'any', nullable: true }, { description: 'any' }],
    ['nullable: false is just dropped', { type: 'integer', nullable: false }, { type: 'integer' }],
    ['x-nullable (Swagger 2) like nullable', { type: 'number', 'x-nullable': true }, { type: ['number', 'null'] }],
    [
      'boolean exclusive bounds → numbers',
      { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
      { type: 'integer', exclusiveMinimum: 1, maximum: 9 },
    ],
    ['type file → binary string', { type: 'file' }, { type: 'string', format: 'binary' }],
    [
      '3.0 $ref siblings: assertions dropped, annotations kept',
      { $ref: '#/components/schemas/T', type: 'object', maxLength: 2, description: 'd', 'x-a': 1 },
      { $ref: '#/components/schemas/T', description: 'd', 'x-a': 1 },
    ],
  ])('%s', (_, input, expected) => {
    expect(one(input)).toEqual(expected);
  });

  it('nested schemas, properties named like keywords, and responses named `default`', () => {
    const root = {
      openapi: '3.0.3',
      paths: {
        '/a': {
          get: {
            responses: {
              default: {
                description: 'e',
                content: { 'application/json': { schema: { type: 'string', nullable: true } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          S: {
            type: 'object',
            properties: {
              default: { type: 'integer', nullable: true },
              nullable: { type: 'boolean' },
              list: { type: 'array', items: { type: 'string', nullable: true } },
            },
          },
        },
      },
    };
    const out = normalizeSchemas(root, 'openapi3.0') as any;
    expect(out.paths['/a'].get.responses.default.content['application/json'].schema).toEqual({
      type: ['string', 'null'],
    });
    expect(out.components.schemas.S.properties).toEqual({
      default: { type: ['integer', 'null'] },
      nullable: { type: 'boolean' },
      list: { type: 'array', items: { type: ['string', 'null'] } },
    });
  });

  it('examples, defaults, enums and x-* extensions are data: never rewritten', () => {
    const s = {
      type: 'object',
      example: { nullable: true, type: 'string' },
      default: { nullable: true },
      'x-shape': { type: 'string', nullable: true },
    };
    expect(one(s)).toEqual(s);
  });
});

describe('copy on write', () => {
  it('a rewritten node keeps its members in their order, a `__proto__` member as data', () => {
    const bounds = one({ minimum: 1, exclusiveMinimum: true, type: 'integer', nullable: true, description: 'd' });
    expect(Object.keys(bounds as object)).toEqual(['exclusiveMinimum', 'type', 'description']);
    expect(bounds).toEqual({ type: ['integer', 'null'], exclusiveMinimum: 1, description: 'd' });
    // `format` joins at the end when `type: file` adds it, and keeps its place when it was there.
    expect(Object.keys(one({ type: 'file', description: 'f' }) as object)).toEqual(['type', 'description', 'format']);
    expect(Object.keys(one({ format: 'x', type: 'file' }) as object)).toEqual(['format', 'type']);
    const hostile = JSON.parse('{"type":"string","__proto__":{"polluted":true},"nullable":true}') as object;
    const out = one(hostile) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['type', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('returns the input itself when nothing needs a change (a 3.1 document, say)', () => {
    const root = {
      openapi: '3.1.0',
      components: {
        schemas: { A: { type: ['string', 'null'] }, B: { $ref: '#/components/schemas/A', description: 'kept in 3.1' } },
      },
    };
    expect(normalizeSchemas(root, 'openapi3.1')).toBe(root);
  });

  it('leaves the loaded document untouched and shares every unchanged node', () => {
    const untouched = { type: 'object', properties: { a: { type: 'string' } } };
    const root = doc30({ A: { type: 'string', nullable: true }, B: untouched });
    const before = JSON.stringify(root);
    const out = normalizeSchemas(root, 'openapi3.0');
    expect(JSON.stringify(root)).toBe(before);
    expect(schemasOf(out).B).toBe(untouched);
    expect(out).not.toBe(root);
  });

  it('a $ref stays a reference (nothing inlined), and a node shared by YAML aliases stays shared', () => {
    const shared = { type: 'string', nullable: true };
    const root = doc30({
      A: { type: 'object', properties: { x: shared, y: shared, r: { $ref: '#/components/schemas/A' } } },
    });
    const props = (schemasOf(normalizeSchemas(root, 'openapi3.0')).A as any).properties;
    expect(props.x).toBe(props.y);
    expect(props.r).toEqual({ $ref: '#/components/schemas/A' });
  });

  it('a real object cycle (YAML anchors) terminates', () => {
    const node: Record<string, unknown> = { type: 'object', nullable: true };
    node.properties = { self: node };
    const out = schemasOf(normalizeSchemas(doc30({ N: node }), 'openapi3.0')).N as any;
    expect(out.type).toEqual(['object', 'null']);
  });

  it('a cycle in a document said to be a tree still terminates, with the same result as without the hint', () => {
    const make = () => {
      const node: Record<string, unknown> = { type: 'object', nullable: true };
      node.properties = { self: node, n: { type: 'integer', 'x-nullable': true } };
      return doc30({ N: node });
    };
    const hinted = schemasOf(normalizeSchemas(make(), 'openapi3.0', { tree: true })).N as any;
    const plain = schemasOf(normalizeSchemas(make(), 'openapi3.0')).N as any;
    expect(hinted.type).toEqual(['object', 'null']);
    expect(hinted.properties.n).toEqual({ type: ['integer', 'null'] });
    expect(hinted.properties.n).toEqual(plain.properties.n);
    expect(hinted.properties.self.type).toEqual(plain.properties.self.type);
  });
});
