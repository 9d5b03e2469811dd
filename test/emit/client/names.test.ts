/** NameTable hands out the first free `wanted`, `wanted2`, `wanted3`, … however the claims interleave. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameTable } from '../../../src/emit/client/names.js';

/** The definition, probing from `2` every time. */
function reference(reserved: string[], claims: string[]): string[] {
  const used = new Set(reserved);
  return claims.map((wanted) => {
    let name = wanted;
    for (let i = 2; used.has(name); i++) name = `${wanted}${i}`;
    used.add(name);
    return name;
  });
}

describe('NameTable', () => {
  it('suffixes repeated names in order, skipping names claimed directly in between', () => {
    const t = new NameTable(['A3']);
    expect(['A', 'A', 'A2', 'A', 'A', 'A3'].map((n) => t.claim(n))).toEqual(['A', 'A2', 'A22', 'A4', 'A5', 'A32']);
  });

  it('gives the same names as probing from 2 each time, for any sequence of claims', () => {
    const name = fc.constantFrom('A', 'A2', 'A3', 'A22', 'B', 'B2', 'AB');
    fc.assert(
      fc.property(fc.array(name, { maxLength: 8 }), fc.array(name, { maxLength: 60 }), (reserved, claims) => {
        const t = new NameTable(reserved);
        expect(claims.map((c) => t.claim(c))).toEqual(reference(reserved, claims));
      }),
      { numRuns: 500 },
    );
  });
});
