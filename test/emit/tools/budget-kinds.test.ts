/**
 * Size-budget placeholders are not looser than the spec at their own level (found by the wire check on the corpus):
 * OpenAI's trimmed tools admitted `"verbosity": -611` and `"tools": [-688, []]`, and a `oneOf` over two
 * object placeholders refused every message. And a form body's required object cannot be empty.
 */
import { describe, expect, it } from 'vitest';
import { fitBudget, placeholder } from '../../../src/emit/tools/budget.js';
import { nonEmptyRequired } from '../../../src/emit/tools/http-input.js';
import { type StrictContext, strictNode } from '../../../packages/runtime/src/tools/strict/strict.js';
import { createAjv } from './ajv.js';

type Obj = Record<string, any>;

const pad = (n: number): Obj =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string', description: 'x'.repeat(40) }]));

/** A tool whose level-1 definitions (Verbosity, the message and tool kinds) become placeholders. */
function fixture(): Obj {
  return {
    type: 'object',
    properties: { body: { $ref: '#/$defs/Request' } },
    required: ['body'],
    $defs: {
      Request: {
        type: 'object',
        properties: {
          verbosity: { $ref: '#/$defs/Verbosity' },
          messages: { type: 'array', items: { oneOf: [{ $ref: '#/$defs/User' }, { $ref: '#/$defs/System' }] } },
          tools: { type: 'array', items: { $ref: '#/$defs/Tool' } },
          choice: { $ref: '#/$defs/Choice' },
          ...pad(20),
        },
      },
      Verbosity: { anyOf: [{ type: 'string', enum: ['low', 'high'] }, { type: 'null' }] },
      User: {
        type: 'object',
        properties: { role: { type: 'string', enum: ['user'] }, content: { type: 'string' }, ...pad(30) },
        required: ['role', 'content'],
      },
      System: {
        type: 'object',
        properties: { role: { const: 'system' }, content: { type: 'string' }, ...pad(30) },
        required: ['role', 'content'],
      },
      Tool: { oneOf: [{ $ref: '#/$defs/Search' }, { $ref: '#/$defs/Shell' }] },
      Search: {
        type: 'object',
        properties: { type: { enum: ['search'] }, stores: { type: 'array', items: { $ref: '#/$defs/Big' } } },
        required: ['type', 'stores'],
      },
      Shell: { type: 'object', properties: { type: { enum: ['shell'] } }, required: ['type'] },
      Choice: { oneOf: [{ type: 'string', enum: ['auto', 'none'] }, { $ref: '#/$defs/Shell' }] },
      Big: { type: 'object', properties: pad(60) },
    },
  };
}

describe('size-budget placeholders', () => {
  const schema = fixture();
  const stubbed = fitBudget(schema, 4_000);
  const validate = createAjv().compile(schema);
  const body = (b: Obj) => validate({ body: b });

  it('trim the fixture (the case under test)', () => {
    expect(stubbed).toBeGreaterThan(0);
    expect(schema.$defs.Verbosity.description).toMatch(/details omitted/);
    expect(schema.$defs.User.description).toMatch(/details omitted/);
  });

  it('keep types and short enums read through unions and $ref', () => {
    expect(body({ verbosity: 'low' })).toBe(true);
    expect(body({ verbosity: null })).toBe(true);
    expect(body({ verbosity: -611 })).toBe(false);
    expect(body({ verbosity: 'loud' })).toBe(false);
    expect(body({ choice: 'auto' })).toBe(true);
    expect(body({ choice: 'Uvzu' })).toBe(false);
  });

  it('keep an object union apart by its discriminators and each branch’s required names', () => {
    expect(body({ tools: [{ type: 'shell' }, { type: 'search', stores: [] }] })).toBe(true);
    expect(body({ tools: [-688, []] })).toBe(false);
    expect(body({ tools: [{}] })).toBe(false);
    expect(body({ tools: [{ type: 'search' }] })).toBe(false);
  });

  it('turn a oneOf over placeholders into anyOf, so a valid message is accepted', () => {
    expect(schema.$defs.Request.properties.messages.items.oneOf).toBeUndefined();
    expect(
      body({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'system', content: 'be brief' },
        ],
      }),
    ).toBe(true);
    expect(body({ messages: [{ role: 'bot', content: 'hi' }] })).toBe(false);
    expect(body({ messages: [{ role: 'user' }] })).toBe(false);
  });

  it('leave the shared definitions untouched (copy on write)', () => {
    const fresh = fixture();
    const defs = fresh.$defs;
    fitBudget(fresh, 4_000);
    expect(defs.Request.properties.messages.items.oneOf).toHaveLength(2);
  });

  it('are sent as JSON text in OpenAI strict mode (closing them would refuse the omitted fields)', () => {
    const ctx: StrictContext = { encoded: [], removed: new Set(), defs: {} };
    const out = strictNode(placeholder('User', fixture().$defs.User), '/p', ctx);
    expect(out.type).toBe('string');
    expect(ctx.encoded).toEqual(['/p']);
  });
});

describe('a form body’s required object that requires nothing', () => {
  it('must hold at least one property (a form cannot spell {}); nested too, and the input is not changed', () => {
    const input = {
      type: 'object',
      properties: {
        components: {
          type: 'object',
          properties: { a: { type: 'object', properties: { on: { type: 'boolean' } } } },
          required: ['a'],
        },
        metadata: { type: 'object', additionalProperties: { type: 'string' } },
        account: { type: 'string' },
      },
      required: ['components', 'account'],
    };
    const before = JSON.stringify(input);
    const out = nonEmptyRequired(input) as Obj;
    expect(JSON.stringify(input)).toBe(before);
    expect(out.properties.components.minProperties).toBeUndefined();
    expect(out.properties.components.properties.a.minProperties).toBe(1);
    expect(out.properties.metadata.minProperties).toBeUndefined();
    const lone = nonEmptyRequired({ type: 'object', properties: { c: { type: 'object' } }, required: ['c'] }) as Obj;
    expect(lone.properties.c.minProperties).toBe(1);
  });
});
