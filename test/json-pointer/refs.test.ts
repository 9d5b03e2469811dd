import { describe, expect, it } from 'vitest';
import { derefSchema, followRef, resolveRef, resolveRefTarget, visitReachable } from '../../src/json-pointer/refs.js';

const root = {
  paths: { '/a/{id}': { get: { ok: 1 } } },
  'tilde~key': { 'per%cent': 2, 'sp ace': 3 },
  components: {
    schemas: {
      A: { $ref: '#/components/schemas/B' },
      B: {
        type: 'object',
        properties: { self: { $ref: '#/components/schemas/A' }, c: { $ref: '#/components/schemas/C' } },
      },
      C: { type: 'string' },
      Loop1: { $ref: '#/components/schemas/Loop2' },
      Loop2: { $ref: '#/components/schemas/Loop1' },
      Details: {
        $id: '/schemas/details',
        type: 'object',
        properties: { id: { $anchor: 'detail_id', type: 'integer' } },
      },
    },
  },
  list: ['zero', 'one'],
};

describe('refs', () => {
  it.each([
    ['#/paths/~1a~1{id}/get', { ok: 1 }],
    ['#/paths/~1a~1%7Bid%7D/get', { ok: 1 }],
    ['#/tilde~0key/per%25cent', 2],
    ['#/tilde~0key/sp%20ace', 3],
    ['#/list/1', 'one'],
    ['#/list/01', undefined],
    ['#/list/-', undefined],
    ['#/nope', undefined],
    ['#', root],
    ['/schemas/details', root.components.schemas.Details],
    ['/schemas/details#detail_id', { $anchor: 'detail_id', type: 'integer' }],
    ['/schemas/details#/properties/id/type', 'integer'],
    ['other.json#/x', undefined],
  ])('resolveRef %s', (ref, expected) => {
    expect(resolveRef(root, ref)).toEqual(expected);
  });

  it('resolveRefTarget gives the target pointer', () => {
    expect(resolveRefTarget(root, '/schemas/details#detail_id')?.pointer).toBe(
      '/components/schemas/Details/properties/id',
    );
  });

  it('followRef follows chains and stops on cycles', () => {
    expect(followRef(root, { $ref: '#/components/schemas/A' }, '/x')).toMatchObject({
      pointer: '/components/schemas/B',
      ref: '#/components/schemas/A',
    });
    expect(followRef(root, { $ref: '#/components/schemas/Loop1' }, '/x').value).toBeUndefined();
  });

  it('derefSchema is one level and keeps siblings', () => {
    expect(derefSchema(root, { $ref: '#/components/schemas/C', description: 'd' })).toEqual({
      type: 'string',
      description: 'd',
    });
    expect(derefSchema(root, { $ref: '#/missing' })).toEqual({ $ref: '#/missing' });
    const b = derefSchema(root, { $ref: '#/components/schemas/A' }) as Record<string, any>;
    expect(b.properties.self).toEqual({ $ref: '#/components/schemas/A' });
  });

  it('visitReachable terminates on circular schemas and visits each object once', () => {
    const types: unknown[] = [];
    visitReachable(root, { $ref: '#/components/schemas/A' }, (node) => {
      if (node.type) types.push(node.type);
    });
    expect(types.sort()).toEqual(['object', 'string']);
  });
});
