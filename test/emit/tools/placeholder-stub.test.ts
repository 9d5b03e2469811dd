/**
 * `placeholderStub` remembers a definition's placeholder per definition object and name, and reuses it
 * only while the definitions it looked up are the same objects: a tool whose lookup gives another
 * definition (a name taken by something else in that tool) gets the placeholder `placeholder` gives.
 */
import { describe, expect, it } from 'vitest';
import { placeholder, placeholderStub } from '../../../src/emit/tools/budget.js';

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
