/** The argument depth limit: the first value nested past it, by JSON pointer, found without recursion. */
import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_DEPTH, tooDeep } from '../../../packages/runtime/src/tools/depth.js';

const nested = (levels: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i += 1) v = { a: v };
  return v;
};

describe('tooDeep', () => {
  it.each([
    ['a flat object', { a: 1, b: 'x' }, 3, undefined],
    ['three containers under a limit of 3', { b: { c: [1] } }, 3, undefined],
    ['a fourth container', { b: { c: [{ d: 1 }] } }, 3, '/b/c/0'],
    ['an escaped key', { 'a/b': { '~': {} } }, 2, '/a~1b/~0'],
    ['scalars at any depth', { b: { c: 'deep string' } }, 2, undefined],
  ])('%s', (_what, value, max, expected) => {
    expect(tooDeep(value, max)).toBe(expected);
  });

  it('walks 100,000 levels without a stack overflow and stops at the limit', () => {
    const pointer = tooDeep(nested(100_000));
    expect(pointer).toBe('/a'.repeat(MAX_ARGUMENT_DEPTH));
    expect(tooDeep(nested(MAX_ARGUMENT_DEPTH))).toBeUndefined();
  });
});
