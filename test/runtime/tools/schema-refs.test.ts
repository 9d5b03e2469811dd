/**
 * The one `$defs` reference walk (runtime/tools/schema-refs.ts) the budget, the strict converter's pruning and
 * the bindings loader share: what counts as a reference, and what a definition reaches through others.
 */
import { describe, expect, it } from 'vitest';
import { ownDefRefs, reachableDefs } from '../../../packages/runtime/src/tools/schema-refs.js';
import { pruneDefs } from '../../../packages/runtime/src/tools/strict/strict-limits.js';

describe('ownDefRefs', () => {
  it('lists the definitions a node names, first met first, decoding the pointer token', () => {
    const node = {
      type: 'object',
      properties: {
        b: { $ref: '#/$defs/B' },
        a: { anyOf: [{ $ref: '#/$defs/A~1x' }, { $ref: '#/$defs/B' }] },
        c: { items: { $ref: '#/$defs/C%20D' } },
      },
    };
    expect(ownDefRefs(node)).toEqual(['B', 'A/x', 'C D']);
  });

  it('does not count data (enum, const, default, examples), a nested $defs, or a reference elsewhere', () => {
    const node = {
      properties: {
        x: { default: { $ref: '#/$defs/Data' }, examples: [{ $ref: '#/$defs/Ex' }], const: { $ref: '#/$defs/K' } },
        y: { enum: [{ $ref: '#/$defs/E' }], $ref: '#/components/schemas/Y' },
      },
      $defs: { Inner: { $ref: '#/$defs/Nested' } },
    };
    expect(ownDefRefs(node)).toEqual([]);
  });

  it('counts a property named like a data keyword or $defs: under properties a name is a name, its value a schema', () => {
    const node = {
      type: 'object',
      properties: {
        default: { $ref: '#/$defs/D' },
        examples: { items: { $ref: '#/$defs/Ex' } },
        enum: { $ref: '#/$defs/E' },
        const: { $ref: '#/$defs/K' },
        $defs: { $ref: '#/$defs/N' },
      },
      patternProperties: { '^default$': { $ref: '#/$defs/P' } },
    };
    expect(ownDefRefs(node)).toEqual(['D', 'Ex', 'E', 'K', 'N', 'P']);
  });
});

describe('reachableDefs', () => {
  it('follows definitions through each other, cycles included, and lists a name it cannot look up', () => {
    const defs: Record<string, unknown> = {
      A: { properties: { b: { $ref: '#/$defs/B' } } },
      B: { items: { $ref: '#/$defs/A' }, properties: { m: { $ref: '#/$defs/Missing' } } },
      Unused: { type: 'string' },
    };
    const root = { properties: { a: { $ref: '#/$defs/A' } }, $defs: defs };
    expect([...reachableDefs(root, (n) => defs[n])].sort()).toEqual(['A', 'B', 'Missing']);
  });

  it('pruneDefs keeps what the root reaches and drops a definition named only inside data', () => {
    const root: Record<string, unknown> = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A', default: { $ref: '#/$defs/OnlyInData' } } },
      $defs: { A: { $ref: '#/$defs/B' }, B: { type: 'string' }, OnlyInData: { type: 'number' } },
    };
    pruneDefs(root);
    expect(Object.keys(root.$defs as object)).toEqual(['A', 'B']);
  });

  it('pruneDefs keeps a definition a property named default or examples refers to (the strict form stays resolvable)', () => {
    const root: Record<string, unknown> = {
      type: 'object',
      properties: { default: { $ref: '#/$defs/Method' }, examples: { $ref: '#/$defs/Sample' } },
      $defs: { Method: { type: 'string' }, Sample: { type: 'number' }, Unused: { type: 'boolean' } },
    };
    pruneDefs(root);
    expect(Object.keys(root.$defs as object)).toEqual(['Method', 'Sample']);
  });
});
