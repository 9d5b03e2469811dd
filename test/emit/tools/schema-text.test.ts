/**
 * The per-run memos of the tools pass give the bytes the plain path gives: texts assembled from pieces equal
 * `JSON.stringify` (indented at any level, compact, and escaped into a TypeScript string), and a definition
 * normalized again under other names (a clash in a later tool) gets those names, not the remembered ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeStringifiedJson, jsonText, tsString } from '../../../src/escape/index.js';
import { createDefs, finishDefs, liftRef } from '../../../src/emit/tools/defs.js';
import { compactObjectText, jsonAt, objectAt } from '../../../src/emit/tools/json.js';
import { normalizeSchema } from '../../../src/emit/tools/normalize.js';
import { IN_STRING, schemaText } from '../../../src/emit/tools/schema-text.js';

type Obj = Record<string, any>;

/** What the array writers did before: the value's own text, every later line shifted by the level. */
const reindented = (value: unknown, level: number): string =>
  (JSON.stringify(value, null, 2) as string).replace(/\n/g, `\n${'  '.repeat(level)}`);

// Strings with quotes, backslashes, controls, bidi and line separators, lone and paired surrogates.
const text = fc.string({
  unit: fc.constantFrom('a', '"', '\\', '\n', '\u007f', '\u2028', '\u202e', 'é', '\ud83d', '\ude00', '😀'),
});
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.oneof(text, fc.constant('__proto__')), tie('value'), { maxKeys: 3 }),
})).value;
const schema = fc.record({ type: fc.constant('object'), properties: fc.dictionary(text, json, { maxKeys: 3 }) });
const withDefs = fc.tuple(schema, fc.dictionary(fc.constantFrom('A', 'B', '__proto__', 'x.y'), schema, { minKeys: 1 }));

describe('schema texts', () => {
  it('jsonAt is JSON.stringify re-indented to the level', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 6 }), (v, level) => {
        expect(jsonAt(v, level)).toBe(reindented(v, level));
      }),
      { seed: 13, numRuns: 300 },
    );
  });

  it('objectAt and compactObjectText with given member texts equal the whole stringify', () => {
    fc.assert(
      fc.property(
        fc.dictionary(text, json, { minKeys: 1, maxKeys: 4 }),
        fc.integer({ min: 0, max: 4 }),
        (obj, level) => {
          const [first] = Object.keys(obj);
          expect(objectAt(obj, level, { [first]: jsonAt(obj[first], level + 1) })).toBe(reindented(obj, level));
          expect(compactObjectText(obj, {})).toBe(JSON.stringify(obj));
        },
      ),
      { seed: 13, numRuns: 200 },
    );
  });

  it('schemaText equals the stringify of the schema with its $defs, at every level and escaped into a string', () => {
    fc.assert(
      fc.property(withDefs, fc.integer({ min: 0, max: 5 }), ([root, defs], level) => {
        const s: Obj = { ...root, $defs: defs };
        expect(schemaText(s, level)).toBe(reindented(s, level));
        // Twice: the second time the definitions' texts come from the memo.
        expect(schemaText(s, level)).toBe(reindented(s, level));
        expect(`"${schemaText(s, IN_STRING)}"`).toBe(tsString(jsonText(s)));
      }),
      { seed: 13, numRuns: 200 },
    );
  });

  it('escapeStringifiedJson takes the ASCII shortcut only when nothing needs escaping', () => {
    fc.assert(
      fc.property(text, (t) => {
        const whole = JSON.stringify(t);
        expect(escapeStringifiedJson(whole)).toBe(
          whole.replace(
            /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufeff]/g,
            (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
          ),
        );
        // The in-string text (no $defs: one stringify, then the escape into a literal) is the two passes in one.
        expect(`"${schemaText({ t }, IN_STRING)}"`).toBe(tsString(escapeStringifiedJson(JSON.stringify({ t }))));
      }),
      { seed: 13, numRuns: 300 },
    );
  });
});

describe('normalized definitions, once per run', () => {
  const root = {
    components: {
      schemas: { A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } }, B: { type: 'string' } },
    },
    other: { B: { type: 'integer' } },
  };

  it('reuses a definition when its refs get the same names, and renormalizes it when a name is taken', () => {
    const first = createDefs(root);
    expect(liftRef(first, '#/components/schemas/A')).toBe('#/$defs/A');
    const a1 = finishDefs(first, normalizeSchema);
    expect(a1.A).toEqual({ type: 'object', properties: { b: { $ref: '#/$defs/B' } } });

    const same = createDefs(root);
    liftRef(same, '#/components/schemas/A');
    expect(finishDefs(same, normalizeSchema).A).toBe(a1.A);

    // `B` is taken by another definition first: A's ref must point at `B_2`, the name this tool gave it.
    const clash = createDefs(root);
    expect(liftRef(clash, '#/other/B')).toBe('#/$defs/B');
    liftRef(clash, '#/components/schemas/A');
    const defs = finishDefs(clash, normalizeSchema);
    expect(defs.A).toEqual({ type: 'object', properties: { b: { $ref: '#/$defs/B_2' } } });
    expect(defs).toEqual({ A: defs.A, B: { type: 'integer' }, B_2: { type: 'string' } });
    expect(clash.unresolved).toEqual([]);
  });
});
