/** The per-tool schema size budget and the per-API aggregated degrade diagnostics. */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { SCHEMA_BUDGET_CHARS } from '../../../src/emit/tools/budget.js';
import { emitTools } from '../../../src/emit/tools/index.js';
import { validateUserConfig } from '../../../src/config/validate.js';
import { compileError, createAjv } from './ajv.js';
import { checkStrictSchema } from './openai-strict.js';
import { entry, planOf, toolOp } from '../../helpers/plan.js';

type Obj = Record<string, any>;

/** A chain of definitions Level0 → Level1 → … each padded with `width` string properties. */
function chain(levels: number, width: number): Obj {
  const definitions: Obj = {};
  for (let n = 0; n < levels; n++) {
    const properties: Obj = {};
    for (let p = 0; p < width; p++)
      properties[`field_${p}`] = { type: 'string', description: `Field ${p} of level ${n}, described at some length.` };
    if (n + 1 < levels) properties.next = { $ref: `#/definitions/Level${n + 1}` };
    definitions[`Level${n}`] = { type: 'object', description: `Level ${n}.`, properties };
  }
  return { type: 'object', properties: { root: { $ref: '#/definitions/Level0' } }, required: ['root'], definitions };
}

function emit(tools: ReturnType<typeof toolOp>[], schemaBudget?: number) {
  const res = emitTools(
    planOf(
      'big',
      tools.map((t) => entry(t, 'fail-closed')),
    ),
    resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'], schemaBudget } }),
  );
  const file = (p: string) => JSON.parse(res.files.find((f) => f.path === p)!.contents);
  return {
    res,
    mcp: file('tools/mcp/big.tools.json').tools as Obj[],
    openAi: file('tools/openai/big.tools.json') as Obj[],
  };
}

describe('tool input schemas over the size budget', () => {
  const { res, mcp, openAi } = emit([toolOp('huge', chain(12, 40)), toolOp('small', chain(2, 3))]);
  const huge = mcp.find((t) => t.name === 'huge')!.inputSchema;

  it('keep the nearest definitions whole and end in open placeholders, within the budget', () => {
    expect(JSON.stringify(huge).length).toBeLessThanOrEqual(SCHEMA_BUDGET_CHARS);
    const names = Object.keys(huge.$defs);
    expect(names).toEqual(['Level0', 'Level1', 'Level2', 'Level3', 'Level4', 'Level5', 'Level6', 'Level7', 'Level8']);
    const last = huge.$defs[names[names.length - 1]];
    expect(last.properties).toBeUndefined();
    expect(last.type).toBe('object');
    expect(last.description).toMatch(/details omitted .* see the API documentation/);
    expect(huge.$defs.Level0.properties.next).toEqual({ $ref: '#/$defs/Level1' });
  });

  it('stay valid JSON Schema 2020-12 and valid OpenAI strict schemas', () => {
    const ajv = createAjv();
    for (const tool of mcp) expect(compileError(ajv, tool.inputSchema)).toBeUndefined();
    for (const tool of openAi) expect(checkStrictSchema(tool.function.parameters)).toEqual([]);
  });

  it('leave schemas under the budget untouched and report once per API', () => {
    const small = mcp.find((t) => t.name === 'small')!.inputSchema;
    expect(Object.keys(small.$defs)).toEqual(['Level0', 'Level1']);
    expect(small.$defs.Level1.properties.field_0.type).toBe('string');
    const trimmed = res.diagnostics.filter((d) => d.code === 'tools_schema_trimmed');
    expect(trimmed).toHaveLength(1);
    expect(trimmed[0]).toMatchObject({ severity: 'info', pointer: '/tools/0' });
    expect(trimmed[0].message).toContain('1 tool input schema exceeded');
  });
});

describe('a warning repeated by many tools', () => {
  const free = (name: string) => toolOp(name, { type: 'object', properties: { meta: { type: 'object' } } });
  const { res } = emit(['a', 'b', 'c', 'd', 'e'].map(free));

  it('is one diagnostic per API with the count, the first tools and the first pointer', () => {
    const encoded = res.diagnostics.filter((d) => d.code === 'tools_openai_json_encoded');
    expect(encoded).toHaveLength(1);
    expect(encoded[0].message).toMatch(
      /^big, 5 tools — tool:a: OpenAI strict mode cannot express \/properties\/meta; tool:b: .*; and 2 more;/,
    );
    expect(encoded[0].pointer).toBe('/tools/0');
  });
});

describe('a budget set in the config (tools.schemaBudget)', () => {
  const medium = chain(6, 20);
  const { res, mcp, openAi } = emit([toolOp('huge', chain(12, 40)), toolOp('medium', medium)], 8_000);

  it('trims to it: a schema under the default budget but over this one is cut, and both fit', () => {
    expect(JSON.stringify({ type: 'object', properties: medium.properties }).length).toBeLessThan(8_000);
    for (const name of ['huge', 'medium']) {
      const schema = mcp.find((t) => t.name === name)!.inputSchema;
      expect(JSON.stringify(schema).length, name).toBeLessThanOrEqual(8_000);
    }
    const untrimmed = emit([toolOp('medium', medium)]).mcp[0]!.inputSchema;
    expect(JSON.stringify(untrimmed).length).toBeGreaterThan(8_000);
    expect(Object.keys(untrimmed.$defs)).toHaveLength(6);
    const trimmedHere = mcp.find((t) => t.name === 'medium')!.inputSchema;
    expect(Object.keys(trimmedHere.$defs).length).toBeLessThan(6);
    const ajv = createAjv();
    for (const tool of mcp) expect(compileError(ajv, tool.inputSchema)).toBeUndefined();
    for (const tool of openAi) expect(checkStrictSchema(tool.function.parameters)).toEqual([]);
  });

  it('names the budget it used and the key that sets it', () => {
    const trimmed = res.diagnostics.filter((d) => d.code === 'tools_schema_trimmed');
    expect(trimmed).toHaveLength(1);
    expect(trimmed[0]!.message).toContain('2 tool input schemas exceeded 8000 characters');
    expect(trimmed[0]!.hint).toMatch(/tools\.schemaBudget/);
  });

  it('is a whole number of at least 1024 characters', () => {
    const check = (schemaBudget: unknown) =>
      validateUserConfig({ tools: { schemaBudget } }, 'idemgen.config.json').map((d) => d.pointer);
    expect(check(8_000)).toEqual([]);
    expect(check(1_024)).toEqual([]);
    for (const bad of [1_023, 0, -5, 2_048.5, '8000', null])
      expect(check(bad), String(bad)).toEqual(['/tools/schemaBudget']);
  });
});
