/**
 * compact.ts finds repeated sub-schemas by signature (its own text with inner sub-schemas as ids) instead of
 * by each sub-schema's full text. Over generated schemas — small pools, so repeats are common; titles as
 * keywords and as property names; strings that look like ids; `$defs` already present — its output is the
 * one of the plain definition below, which stringifies every sub-schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactListedTool, shareRepeatedSubschemas } from '../../../packages/runtime/src/mcp/compact.js';
import type { ToolBinding } from '../../../packages/runtime/src/tools/types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const ONE = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
];

/** The definition: every sub-schema's own JSON.stringify, no memo (quadratic, fine for small inputs). */
function eachSub(schema: Obj, f: (s: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema)) {
    if (MAPS.includes(k) && isObj(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, f(s)]));
    else if (LISTS.includes(k) && Array.isArray(v)) out[k] = v.map(f);
    else if (ONE.includes(k) && isObj(v)) out[k] = f(v);
    else out[k] = v;
  }
  return out;
}
function plainWithoutTitles(s: unknown): unknown {
  if (!isObj(s)) return s;
  const out = eachSub(s, plainWithoutTitles);
  delete out.title;
  return out;
}
function plainShare(schema: Obj): Obj {
  const counts = new Map<string, number>();
  const count = (s: unknown): unknown => {
    if (!isObj(s)) return s;
    const text = JSON.stringify(s);
    if (text.length >= 40) counts.set(text, (counts.get(text) ?? 0) + 1);
    return eachSub(s, count);
  };
  eachSub(schema, count);
  if (![...counts.values()].some((n) => n > 1)) return schema;
  const existing = isObj(schema.$defs) ? schema.$defs : {};
  const added: Obj = {};
  const names = new Map<string, string>();
  let next = 0;
  const rewrite = (s: unknown): unknown => {
    if (!isObj(s)) return s;
    const text = JSON.stringify(s);
    if ((counts.get(text) ?? 0) < 2) return eachSub(s, rewrite);
    let name = names.get(text);
    if (name === undefined) {
      do name = `_${next++}`;
      while (name in existing);
      names.set(text, name);
      added[name] = eachSub(s, rewrite);
    }
    return { $ref: `#/$defs/${name}` };
  };
  const out = eachSub(schema, rewrite);
  out.$defs = { ...(isObj(out.$defs) ? out.$defs : {}), ...added };
  return JSON.stringify(out).length < JSON.stringify(schema).length ? out : schema;
}

const leaf = fc.oneof(
  fc.constantFrom('string', 'integer', '#1', '#0', '"#2"', 'a,b', '{"x":1}', 'title'),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.constantFrom('a', 'b', '#1'), { maxLength: 3 }),
);
const keyword = fc.constantFrom('type', 'description', 'title', 'enum', 'format', 'default', 'x-note');
const propName = fc.constantFrom('a', 'b', 'title', 'items', '#1');
const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.dictionary(keyword, leaf, { maxKeys: 3 }),
    fc.record(
      {
        type: fc.constant('object'),
        title: fc.constantFrom('Shape', 'Other shape'),
        description: fc.constantFrom('A long enough description to be worth sharing', 'short'),
        properties: fc.dictionary(propName, tie('schema'), { maxKeys: 3 }),
        items: tie('schema'),
        anyOf: fc.array(tie('schema'), { maxLength: 3 }),
        not: tie('schema'),
        $defs: fc.dictionary(fc.constantFrom('_0', '_1', 'x'), tie('schema'), { maxKeys: 2 }),
      },
      { requiredKeys: [] },
    ),
    fc.constant(true),
    // Not schemas, but where one may stand: their text must not be taken for a sub-schema's id.
    fc.integer({ min: 0, max: 3 }),
  ),
}));
// A small pool of sub-schemas, reused: repeated sub-schemas (and repeated object identities) are common.
const pooled = fc.array(schema, { minLength: 1, maxLength: 4 }).chain((pool) =>
  fc
    .array(
      fc.record({ name: propName, pick: fc.nat(pool.length - 1), wrap: fc.constantFrom('none', 'items', 'anyOf') }),
      { maxLength: 6 },
    )
    .map((uses) => {
      const properties: Obj = {};
      for (const { name, pick, wrap } of uses) {
        const s = pool[pick];
        properties[`${name}${Object.keys(properties).length}`] =
          wrap === 'items' ? { type: 'array', items: s } : wrap === 'anyOf' ? { anyOf: [s, { type: 'null' }] } : s;
      }
      return { type: 'object', title: 'Top', properties, ...(uses.length % 2 ? { $defs: { _0: pool[0] } } : {}) };
    }),
);

describe('compact listing: sharing by signature equals the plain definition', () => {
  it('shareRepeatedSubschemas gives the text the plain definition gives (and the input itself when it keeps it)', () => {
    fc.assert(
      fc.property(pooled, (s) => {
        const plain = plainShare(s);
        const fast = shareRepeatedSubschemas(s);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(plain));
        if (plain === s) expect(fast).toBe(s);
      }),
      { numRuns: 400 },
    );
  });

  it('compactListedTool drops the title keywords and shares like the plain definition of the title-less schema', () => {
    const binding = { keyProperty: undefined } as unknown as ToolBinding;
    fc.assert(
      fc.property(pooled, (s) => {
        const tool = { name: 't', description: 'd', inputSchema: s, _meta: {} };
        const before = JSON.stringify(s);
        const expected = plainShare(plainWithoutTitles(s) as Obj);
        expect(JSON.stringify(compactListedTool(tool, binding).inputSchema)).toBe(JSON.stringify(expected));
        expect(JSON.stringify(s)).toBe(before);
      }),
      { numRuns: 400 },
    );
  });
});
