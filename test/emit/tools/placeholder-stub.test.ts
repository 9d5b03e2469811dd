/**
 * `placeholderStub` remembers a definition's placeholder per definition object and name, and reuses it
 * only while the definitions it looked up are the same objects: a tool whose lookup gives another
 * definition (a name taken by something else in that tool) gets the placeholder `placeholder` gives.
 * `schemaLength` measures a schema with `$defs` as `JSON.stringify` would, from remembered definition lengths.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { placeholder, placeholderStub, schemaLength } from '../../../src/emit/tools/budget.js';

describe('placeholderStub', () => {
  const def = { allOf: [{ $ref: '#/$defs/Base' }], description: 'A pet.' };
  const objectBase = { type: 'object', properties: { kind: { enum: ['cat', 'dog'] } }, required: ['kind'] };
  const stringBase = { type: 'string', enum: ['a', 'b'] };

  it('gives what placeholder gives, with its share of the $defs text', () => {
    const lookup = (n: string) => (n === 'Base' ? objectBase : undefined);
    const stub = placeholderStub('Pet', def, lookup);
    expect(stub.schema).toEqual(placeholder('Pet', def, lookup));
    expect(stub.schema.type).toBe('object');
    expect(stub.size).toBe('Pet'.length + 4 + JSON.stringify(stub.schema).length);
  });

  it('reuses the placeholder only while the looked-up definitions are the same objects', () => {
    const first = placeholderStub('Animal', def, (n) => (n === 'Base' ? objectBase : undefined));
    expect(placeholderStub('Animal', def, (n) => (n === 'Base' ? objectBase : undefined))).toBe(first);
    const other = placeholderStub('Animal', def, (n) => (n === 'Base' ? stringBase : undefined));
    expect(other).not.toBe(first);
    expect(other.schema).toEqual(placeholder('Animal', def, (n) => (n === 'Base' ? stringBase : undefined)));
    expect(other.schema.type).toBe('string');
    // Another name is another placeholder (its description names the definition).
    const renamed = placeholderStub('Animal_2', def, (n) => (n === 'Base' ? stringBase : undefined));
    expect(renamed.schema.description).toContain('Animal_2');
  });
});

describe('schemaLength', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const object = fc.dictionary(fc.string(), json, { maxKeys: 5 });

  it('is the length of JSON.stringify for any schema with $defs (escaped names, undefined members left out)', () => {
    fc.assert(
      fc.property(
        object,
        fc.dictionary(fc.string(), fc.oneof(object, fc.boolean(), fc.constant(undefined))),
        (rest, defs) => {
          const schema = { ...rest, $defs: defs, skipped: undefined };
          expect(schemaLength(schema)).toBe(JSON.stringify(schema).length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
