/** RFC 8785 canonical JSON and the argument hash: unit vectors plus fast-check properties. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashArgs } from '../../../packages/runtime/src/support.js';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units (RFC 8785 §3.2.3 example)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const keys = Object.keys(JSON.parse(canonicalJson(input)) as object);
    // JSON.parse re-orders integer-like keys, so read the order from the text instead.
    const order = [...canonicalJson(input).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map(
      (m) => JSON.parse(`"${m[1]}"`) as string,
    );
    expect(order).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
    expect(keys).toHaveLength(7);
  });

  it('serializes numbers the ECMAScript way (RFC 8785 §3.2.2.3)', () => {
    const cases: [number, string][] = [
      [1e21, '1e+21'],
      [1e-7, '1e-7'],
      [0.000001, '0.000001'],
      [-0, '0'],
      [333333333.3333333, '333333333.3333333'],
      [9007199254740992, '9007199254740992'],
      [5e-324, '5e-324'],
    ];
    for (const [n, text] of cases) expect(canonicalJson(n)).toBe(text);
  });

  it('omits undefined members, keeps nulls, nests and escapes like JSON', () => {
    expect(canonicalJson({ b: undefined, a: null, c: [undefined, 'x"\n'], d: { z: 1, y: true } })).toBe(
      '{"a":null,"c":[null,"x\\"\\n"],"d":{"y":true,"z":1}}',
    );
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":"1970-01-01T00:00:00.000Z"}');
  });

  it('writes array holes and undefined items as null, like JSON.stringify (never the non-JSON "[,1]")', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point (canonical JSON of array holes)
    const sparse = [, 1, undefined, () => 0];
    expect(canonicalJson(sparse)).toBe('[null,1,null,null]');
    expect(canonicalJson(sparse)).toBe(JSON.stringify(sparse));
    expect(canonicalJson([undefined])).toBe('[null]');
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point (it hashes like null)
    expect(hashArgs({ a: [, 2] })).toBe(hashArgs({ a: [null, 2] }));
  });

  it('refuses values with no JSON form instead of guessing', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ n: Infinity })).toThrow(TypeError);
    expect(() => canonicalJson({ n: 10n })).toThrow(/bigint/);
    expect(() => canonicalJson(new Map())).toThrow(/Map/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cyclic/);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});

const jsonValue = fc.jsonValue({ maxDepth: 4 });

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffleKeys(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  // Deterministic rotation + reversal: a different insertion order than the original.
  const rotated = entries
    .slice(seed % Math.max(1, entries.length))
    .concat(entries.slice(0, seed % Math.max(1, entries.length)))
    .reverse();
  return Object.fromEntries(rotated.map(([k, v], i) => [k, shuffleKeys(v, seed + i)]));
}

describe('hashArgs properties', () => {
  it('is invariant under key order', () => {
    fc.assert(
      fc.property(jsonValue, fc.nat(), (v, seed) => hashArgs(v) === hashArgs(shuffleKeys(v, seed))),
      { numRuns: 300 },
    );
  });

  it('is invariant under equivalent number spellings (1, 1.0, 1e0, 1.000E+0)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.string(), (n, k) => {
        const spellings = [`${n}`, `${n}.0`, `${n}e0`, `${n}.000E+0`, `${n}.0e-0`];
        const hashes = spellings.map((s) => hashArgs(JSON.parse(`{${JSON.stringify(k)}:${s}}`)));
        return hashes.every((h) => h === hashes[0]);
      }),
      { numRuns: 300 },
    );
    expect(hashArgs(JSON.parse('{"amount":1.0}'))).toBe(hashArgs({ amount: 1 }));
    expect(hashArgs(JSON.parse('{"amount":1e0}'))).toBe(hashArgs({ amount: 1 }));
    expect(hashArgs(JSON.parse('{"amount":10e-1}'))).toBe(hashArgs({ amount: 1 }));
  });

  it('distinct JSON values give distinct hashes', () => {
    fc.assert(
      fc.property(jsonValue, jsonValue, (a, b) => {
        fc.pre(canonicalJson(a) !== canonicalJson(b));
        return hashArgs(a) !== hashArgs(b);
      }),
      { numRuns: 500 },
    );
    expect(hashArgs({ amount: 100 })).not.toBe(hashArgs({ amount: 101 }));
    expect(hashArgs({ to: 'a', body: 'b' })).not.toBe(hashArgs({ to: 'b', body: 'a' }));
  });

  it('canonical text round-trips: parsing it and canonicalizing again is a fixed point', () => {
    fc.assert(
      fc.property(jsonValue, (v) => canonicalJson(JSON.parse(canonicalJson(v))) === canonicalJson(v)),
      { numRuns: 300 },
    );
  });

  it('is a 64-char lowercase hex SHA-256', () => {
    expect(hashArgs({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });
});
