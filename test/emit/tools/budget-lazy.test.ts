/** fitBudgetLazily gives exactly what fitBudget gives on the fully normalized schema. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitBudget } from '../../../src/emit/tools/budget.js';
import { fitBudgetLazily } from '../../../src/emit/tools/budget-lazy.js';
import { createDefs, finishDefs } from '../../../src/emit/tools/defs.js';
import { normalizeSchema } from '../../../src/emit/tools/normalize.js';

type Obj = Record<string, any>;

function eager(doc: Obj, input: Obj, budget: number) {
  const builder = createDefs(doc);
  const schema = normalizeSchema(input, builder) as Obj;
  const defs = finishDefs(builder, normalizeSchema);
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  const trimmed = fitBudget(schema, budget);
  return { text: JSON.stringify(schema), trimmed, unresolved: builder.unresolved };
}

function lazy(doc: Obj, input: Obj, budget: number) {
  const builder = createDefs(doc);
  const schema = normalizeSchema(input, builder) as Obj;
  const trimmed = fitBudgetLazily(schema, builder, budget);
  return { text: JSON.stringify(schema), trimmed, normalized: builder.defs.size, unresolved: builder.unresolved };
}

/** Schemas `S0…Sn` under components, each with `width` padded strings and refs to the listed others. */
function graph(edges: number[][], width: number, extra: (i: number) => Obj = () => ({})): Obj {
  const schemas: Obj = {};
  edges.forEach((targets, i) => {
    const properties: Obj = {};
    for (let p = 0; p < width; p++)
      properties[`f${p}`] = { type: 'string', description: `field ${p} of S${i}`, nullable: p % 3 === 0 };
    targets.forEach((t, k) => {
      properties[`r${k}`] = { $ref: `#/components/schemas/S${t}` };
    });
    schemas[`S${i}`] = { type: 'object', description: `S${i}`, properties, ...extra(i) };
  });
  return { openapi: '3.0.3', components: { schemas } };
}

const input = (refs: number[]): Obj => ({
  type: 'object',
  properties: Object.fromEntries(refs.map((r, k) => [`p${k}`, { $ref: `#/components/schemas/S${r}` }])),
});

describe('fitBudgetLazily', () => {
  const chain = graph(
    Array.from({ length: 30 }, (_, i) => (i + 1 < 30 ? [i + 1] : [])),
    12,
  );

  it('matches fitBudget when the schema fits', () => {
    const a = lazy(chain, input([0]), 1_000_000);
    expect(a).toMatchObject({ trimmed: 0 });
    expect(a.text).toBe(eager(chain, input([0]), 1_000_000).text);
  });

  it('matches fitBudget when it trims, normalizing only the levels the budget looks at', () => {
    const a = lazy(chain, input([0]), 3000);
    const b = eager(chain, input([0]), 3000);
    expect(a.trimmed).toBeGreaterThan(0);
    expect({ text: a.text, trimmed: a.trimmed }).toEqual({ text: b.text, trimmed: b.trimmed });
    expect(a.normalized).toBeLessThan(30);
  });

  it('keeps the names a full run gives when two pointers share a base name', () => {
    const doc = graph([[1, 2], [2], [0]], 10);
    doc.definitions = { S1: { type: 'object', properties: { back: { $ref: '#/components/schemas/S0' } } } };
    doc.components.schemas.S2.properties.other = { $ref: '#/definitions/S1' };
    for (const budget of [400, 900, 1500, 2500, 100_000])
      expect(lazy(doc, input([0, 2]), budget).text).toBe(eager(doc, input([0, 2]), budget).text);
  });

  it('falls back to the full run when a literal $ref in an example reaches a definition not normalized yet', () => {
    const doc = graph(
      Array.from({ length: 12 }, (_, i) => (i + 1 < 12 ? [i + 1] : [])),
      12,
      (i) => (i === 0 ? { example: { $ref: '#/$defs/S11' } } : {}),
    );
    const a = lazy(doc, input([0]), 2500);
    const b = eager(doc, input([0]), 2500);
    expect(a.trimmed).toBeGreaterThan(0);
    expect({ text: a.text, trimmed: a.trimmed }).toEqual({ text: b.text, trimmed: b.trimmed });
    expect(a.normalized).toBe(12);
  });

  it('falls back to the full run (every unresolved ref seen) when a deep ref targets a non-schema value', () => {
    const doc = graph(
      Array.from({ length: 12 }, (_, i) => (i + 1 < 12 ? [i + 1] : [])),
      12,
    );
    doc.info = { title: 'x' };
    doc.components.schemas.S10.properties.bad = { $ref: '#/info/title' };
    const a = lazy(doc, input([0]), 2500);
    const b = eager(doc, input([0]), 2500);
    expect(a).toEqual({ ...b, normalized: 12 });
    expect(a.unresolved).toEqual(['#/info/title']);
  });

  it('matches fitBudget on random reference graphs and budgets', () => {
    const arb = fc.record({
      edges: fc.array(fc.array(fc.nat(14), { maxLength: 4 }), { minLength: 1, maxLength: 15 }),
      width: fc.integer({ min: 0, max: 8 }),
      roots: fc.array(fc.nat(14), { minLength: 1, maxLength: 3 }),
      budget: fc.integer({ min: 50, max: 6000 }),
    });
    fc.assert(
      fc.property(arb, ({ edges, width, roots, budget }) => {
        const n = edges.length;
        const doc = graph(
          edges.map((ts) => ts.map((t) => t % n)),
          width,
        );
        const refs = roots.map((r) => r % n);
        const a = lazy(doc, input(refs), budget);
        const b = eager(doc, input(refs), budget);
        expect({ text: a.text, trimmed: a.trimmed }).toEqual({ text: b.text, trimmed: b.trimmed });
      }),
      { numRuns: 300 },
    );
  });
});
