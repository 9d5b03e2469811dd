/**
 * A spec is untrusted data: whatever it holds, a run ends in output or in diagnostics, never in an internal
 * error. Random edits of the bundled specs (a value replaced by one of its kind with awkward strings, by any
 * JSON value, or removed; up to three per run) go through loading, classification and every emitter with all
 * tool formats on. (10 seeds of 800 runs each passed when this was written; CI runs one seed.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { resolveConfig } from '../../src/config/types.js';
import { ConfigError, InputError } from '../../src/diagnostics/diagnostic.js';
import { runPipeline } from '../../src/pipeline.js';
import { ROOT } from '../helpers/cli.js';

type Path = (string | number)[];

const SPECS = ['payments.openapi.yaml', 'inventory.swagger.json', 'messaging.openapi.yaml', 'agent-tools.mcp.json'];

function pathsOf(doc: unknown): Path[] {
  const out: Path[] = [];
  const walk = (v: unknown, at: Path): void => {
    if (at.length > 0) out.push(at);
    if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, [...at, i]);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
  };
  walk(doc, []);
  return out;
}

const awkward = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    ' ',
    '__proto__',
    'constructor',
    'toString',
    'a/b',
    '#/components/schemas/Nope',
    '{id}',
    'x"y',
    '\u2028',
    'ÿ-é',
  ),
);

/** A value of the kind of `v` (so it gets past shape checks and deeper into the stages). */
const kindOf = (v: unknown): fc.Arbitrary<unknown> =>
  typeof v === 'string'
    ? awkward
    : typeof v === 'number'
      ? fc.oneof(fc.integer(), fc.double())
      : typeof v === 'boolean'
        ? fc.boolean()
        : Array.isArray(v)
          ? fc.array(v.length > 0 ? kindOf(v[0]) : awkward, { maxLength: 3 })
          : fc.oneof(
              fc.jsonValue({ maxDepth: 2 }),
              fc.dictionary(awkward, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
            );

it('random edits of the bundled specs end in output or diagnostics, never in an internal error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-spec-mutations-'));
  const docs = SPECS.map((f) => {
    const text = readFileSync(join(ROOT, 'specs', f), 'utf8');
    return (f.endsWith('.json') ? JSON.parse(text) : parse(text)) as unknown;
  });
  const paths = docs.map(pathsOf);
  const at = (doc: unknown, path: Path): unknown => path.reduce<any>((v, s) => v?.[s], doc);
  const edit = fc
    .nat({ max: SPECS.length - 1 })
    .chain((d) =>
      fc
        .constantFrom(...paths[d]!)
        .chain((path) =>
          fc.tuple(
            fc.constant(d),
            fc.constant(path),
            fc.oneof(kindOf(at(docs[d], path)), fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
          ),
        ),
    );
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
      const copies = docs.map((d) => structuredClone(d));
      for (const [d, path, value] of edits) {
        const parent = at(copies[d], path.slice(0, -1));
        if (parent === null || typeof parent !== 'object') continue; // an earlier edit replaced it
        const key = path[path.length - 1]!;
        if (value !== undefined) (parent as Record<string | number, unknown>)[key] = value;
        else if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete (parent as Record<string | number, unknown>)[key];
      }
      const sub = mkdtempSync(join(dir, 'run-'));
      for (const [i, c] of copies.entries())
        writeFileSync(join(sub, SPECS[i]!.replace(/\.ya?ml$/, '.json')), JSON.stringify(c));
      runs++;
      try {
        await runPipeline([sub], resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } }), sub);
      } catch (err) {
        if (!(err instanceof InputError || err instanceof ConfigError)) throw err;
      }
    }),
    { numRuns: 200, seed: 20261204 },
  );
  expect(runs).toBe(200);
}, 300_000);
