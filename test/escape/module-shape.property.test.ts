/**
 * Property: whatever strings a spec holds in the positions spec text reaches a client from, the generated
 * module has the same syntax tree shape as the one generated from a benign baseline (same node kinds in
 * the same order; names and literal texts ignored, comments are not nodes), and it compiles under --strict.
 * A string that escaped its context would add or change nodes: a statement, a call, a template span.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/classify/index.js';
import { resolveConfig } from '../../src/config/types.js';
import { renderClientFile } from '../../src/emit/client/index.js';
import { buildApiModel } from '../../src/ir/index.js';
import type { LoadedDoc } from '../../src/load/index.js';
import { typeCheck, writeBatch } from '../emit/client/helpers/compile.js';

const RUNS = 60;
const SLOTS = 20;
const P = 'globalThis.__pwned=1';
const esc = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every string position a client is generated from; `s[i]` is slot i. Order-stable: sorting never depends on a slot. */
function spec(s: string[]): Record<string, unknown> {
  const schemaName = s[15]!;
  return {
    openapi: '3.1.0',
    info: { title: s[0], version: s[1], description: s[19] },
    servers: [{ url: s[2] }],
    tags: [{ name: s[3], description: s[4] }],
    paths: {
      [`/a/{id}/${s[5]}`]: {
        get: {
          operationId: s[6],
          summary: s[7],
          description: s[8],
          tags: [s[3]],
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: s[10] },
            {
              name: s[9],
              in: 'query',
              schema: { type: 'string', enum: [s[12]], default: s[13], example: s[14] },
              description: s[10],
            },
            { name: `X-${s[11]}`, in: 'header', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: s[18],
              content: { 'application/json': { schema: { $ref: `#/components/schemas/${esc(schemaName)}` } } },
            },
          },
        },
      },
      '/b/{x}': {
        get: {
          operationId: s[11],
          description: s[17],
          parameters: [{ name: 'x', in: 'path', required: true, schema: { type: 'string', const: s[13] } }],
          responses: { '200': { description: 'ok' } },
        },
      },
      '/c': {
        post: {
          operationId: 'createThing',
          summary: s[8],
          parameters: [
            { name: 'Idempotency-Key', in: 'header', schema: { type: 'string', maxLength: 64 }, description: s[4] },
          ],
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: [s[16]],
                  properties: { [s[16]!]: { type: 'string', enum: [s[14]] } },
                },
              },
            },
          },
          responses: { '200': { description: s[18] } },
        },
      },
    },
    components: {
      schemas: {
        [schemaName]: {
          type: 'object',
          description: s[17],
          required: [s[16]],
          properties: { [s[16]!]: { type: 'string', description: s[19], enum: [s[12]], default: s[7] } },
        },
      },
    },
  };
}

function generate(s: string[]): string {
  const doc: LoadedDoc = {
    file: 'fuzz.openapi.json',
    kind: 'openapi',
    format: 'openapi3.1',
    syntax: 'json',
    root: spec(s),
    locate: () => undefined,
    parts: [],
  };
  const { api } = buildApiModel(doc);
  return renderClientFile(classify([api], resolveConfig()).apis[0]!);
}

const ATOMS = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.PrivateIdentifier,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
]);

/** Node kinds in document order; names and literals are one `Atom` kind (`amount` and `"x-y"` are both keys). */
function shape(text: string): string[] {
  const sf = ts.createSourceFile('m.ts', text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const kinds: string[] = [];
  const visit = (node: ts.Node): void => {
    kinds.push(ATOMS.has(node.kind) ? 'Atom' : ts.SyntaxKind[node.kind]!);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return kinds;
}

const HOSTILE_UNITS = [
  '$',
  '{',
  '}',
  '`',
  '\\',
  '*',
  '/',
  '\u2028',
  '\u2029',
  '\n',
  '\r',
  '"',
  "'",
  '<',
  '>',
  '@',
  '|',
  ' ',
  'a',
  '_',
  '\u202e',
  '\u0000',
  'é',
  '~',
];
const PAYLOADS = [
  `\${${P}}`,
  `\`+${P}+\``,
  `*/ ${P}; /*`,
  `"); ${P}; ("`,
  `</script><img src=x onerror="${P}">`,
  "'); DROP TABLE t; --",
  '__proto__',
  'constructor',
  'then',
  'CON',
  '../../etc/passwd',
  '',
  ' ',
  '\u2028',
  '@deprecated',
  '1st',
  'class',
  'default',
];
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: fc.constantFrom(...HOSTILE_UNITS), maxLength: 24 }),
  fc.constantFrom(...PAYLOADS),
);
// `{id}` inside the path slot would declare a second parameter: a real change of the operation, not an escape.
const slots = fc.array(text, { minLength: SLOTS, maxLength: SLOTS }).filter((s) => !s[5]!.includes('{id}'));

describe('generated client module shape', () => {
  const baseline = generate(Array.from({ length: SLOTS }, (_, i) => `benign${i}`));
  const expected = shape(baseline);

  it('the comparison sees an added statement or expression', () => {
    expect(expected.filter((k) => k === 'MethodDeclaration')).toHaveLength(4); // three operations + static errorOf
    expect(shape(`${baseline}\nglobalThis.x = 1;\n`)).not.toEqual(expected);
    expect(shape(baseline.replace('/** ', '/** */ void 0; /* '))).not.toEqual(expected);
  });

  it(`random strings in ${SLOTS} spec positions never change it, and every module compiles (${RUNS} runs)`, () => {
    const modules = new Map<string, string>();
    fc.assert(
      fc.property(slots, (s) => {
        const text = generate(s);
        expect(shape(text)).toEqual(expected);
        modules.set(`m${modules.size}.gen.ts`, text);
      }),
      { numRuns: RUNS, seed: 20261130 },
    );
    // One Program for all modules: the runtime and lib files are checked once.
    const problems = [...typeCheck(writeBatch(join('fuzz'), modules))].filter(([, d]) => d.length > 0);
    expect(problems).toEqual([]);
  });
});
