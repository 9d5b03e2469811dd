/**
 * The default argument summary is written as text directly (shapeText) instead of serializing the
 * shape object (shapeOf): the two must agree on every input, and the summary keeps no values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shapeOf, shapeText, summarizeArgs } from '../../../packages/runtime/src/core/args-summary.js';

const many = Object.fromEntries(Array.from({ length: 45 }, (_, i) => [`k${i}`, i]));
const samples: unknown[] = [
  undefined,
  null,
  'secret-value',
  42,
  true,
  10n,
  Symbol('s'),
  () => 1,
  [],
  [{ to: 'a@b.c' }, 2],
  { amount: 1, to: 'acct_1', nested: { deeper: { deepest: { gone: { x: 1 } } } } },
  { 2: 'b', 1: 'a', z: [[['x']]], bytes: new Uint8Array(7), buf: new ArrayBuffer(3), blob: new Blob(['abc']) },
  JSON.parse('{"__proto__":{"x":1},"a":"b"}'),
  { 'quote"key': 1, 'back\\slash': 'v', '\u2028': null, undef: undefined },
  many,
];

describe('default argument summary', () => {
  it.each(samples.map((v, i) => [i, v] as const))('shapeText equals JSON.stringify(shapeOf) for sample %i', (_i, v) => {
    expect(shapeText(v)).toBe(JSON.stringify(shapeOf(v)));
  });

  it('agrees on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(shapeText(v)).toBe(JSON.stringify(shapeOf(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps shape and sizes, no values', () => {
    const text = summarizeArgs({ to: 'alice@example.com', amount: 125 }, 'op', undefined) as string;
    expect(JSON.parse(text)).toEqual({ to: 'string(17)', amount: 'number' });
    expect(text).not.toContain('alice');
    expect(text).not.toContain('125');
  });
});
