/** Tool selection (config `select`) and the OpenAI split: which tools each artifact and `serve` get. */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { validateUserConfig } from '../../src/config/validate.js';
import { entryFilter, selectPlan } from '../../src/emit/select.js';
import { emitTools } from '../../src/emit/tools/index.js';
import { emitAll } from '../../src/pipeline.js';
import { entry, httpOp, planOf } from '../helpers/plan.js';

const charges = entry(httpOp('post', '/v1/charges', { tags: ['Charges'] }), 'fail-closed');
const getCharge = entry(httpOp('get', '/v1/charges/{charge}', { tags: ['Charges'] }), 'none');
const customers = entry(httpOp('post', '/v1/customers', { tags: ['Customers'] }), 'fail-closed');
const plan = planOf('pay', [charges, getCharge, customers], {}, 'openapi3.1');
const keys = (sel: Parameters<typeof entryFilter>[0]) =>
  plan.apis[0]!.entries.filter(entryFilter(sel)).map((e) => e.operation.key);

describe('select', () => {
  it('includes and excludes by tag, operation-key glob and name; read-only and writes-only', () => {
    expect(keys({})).toEqual(['POST /v1/charges', 'GET /v1/charges/{charge}', 'POST /v1/customers']);
    expect(keys({ include: ['tag:charges'] })).toEqual(['POST /v1/charges', 'GET /v1/charges/{charge}']);
    expect(keys({ include: ['Customers'] })).toEqual(['POST /v1/customers']);
    expect(keys({ include: ['POST /v1/*'] })).toEqual(['POST /v1/charges', 'POST /v1/customers']);
    expect(keys({ include: ['* /v1/charges/*'] })).toEqual(['GET /v1/charges/{charge}']);
    expect(keys({ exclude: ['tag:Charges'] })).toEqual(['POST /v1/customers']);
    expect(keys({ include: [charges.operation.name] })).toEqual(['POST /v1/charges']);
    expect(keys({ readOnly: true })).toEqual(['GET /v1/charges/{charge}']);
    expect(keys({ writesOnly: true, exclude: ['POST /v1/customers'] })).toEqual(['POST /v1/charges']);
  });

  it('narrows the tool artifacts, not the client', async () => {
    const root = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} };
    const p = planOf('pay', [charges, getCharge, customers], root, 'openapi3.1');
    const config = { ...resolveConfig({ select: { readOnly: true } }), artifacts: ['tools', 'client'] };
    const { files } = await emitAll(p, config);
    const mcp = JSON.parse(files.find((f) => f.path === 'tools/mcp/pay.tools.json')!.contents) as { tools: unknown[] };
    expect(mcp.tools).toHaveLength(1);
    const client = files.find((f) => f.path === 'client/pay.gen.ts')!.contents;
    expect(client).toContain('/v1/customers');
    expect(selectPlan(p, {})).toBe(p);
  });

  it('validates the select section with pointers', () => {
    const problems = validateUserConfig({ select: { include: 'x', readOnly: 'yes', only: [] } }, 'idemgen.config.json');
    expect(problems.map((d) => d.pointer).sort()).toEqual(['/select/include', '/select/only', '/select/readOnly']);
    const both = validateUserConfig({ select: { readOnly: true, writesOnly: true } }, 'c.json');
    expect(both).toHaveLength(1);
    expect(both[0]!.message).toMatch(/exclude each other/);
    expect(
      validateUserConfig({ select: { include: ['tag:a'], exclude: ['GET /x'], writesOnly: true } }, 'c.json'),
    ).toEqual([]);
  });
});

describe('OpenAI split', () => {
  const many = (n: number) =>
    planOf(
      'big',
      Array.from({ length: n }, (_, i) => entry(httpOp('post', `/things${String(i).padStart(3, '0')}`), 'fail-closed')),
      {},
      'openapi3.1',
    );

  it('writes parts of at most 128 tools with an info diagnostic; MCP and Anthropic stay one file', () => {
    const { files, diagnostics } = emitTools(
      many(300),
      resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } }),
    );
    const openAi = files.filter((f) => f.path.startsWith('tools/openai/') && f.path.endsWith('.tools.json'));
    expect(openAi.map((f) => f.path)).toEqual([
      'tools/openai/big.1.tools.json',
      'tools/openai/big.2.tools.json',
      'tools/openai/big.3.tools.json',
    ]);
    const sizes = openAi.map((f) => (JSON.parse(f.contents) as unknown[]).length);
    expect(sizes).toEqual([128, 128, 44]);
    const names = openAi.flatMap((f) =>
      (JSON.parse(f.contents) as { function: { name: string } }[]).map((t) => t.function.name),
    );
    expect(new Set(names).size).toBe(300);
    expect(
      (JSON.parse(files.find((f) => f.path === 'tools/mcp/big.tools.json')!.contents) as { tools: unknown[] }).tools,
    ).toHaveLength(300);
    expect(
      JSON.parse(files.find((f) => f.path === 'tools/anthropic/big.tools.json')!.contents) as unknown[],
    ).toHaveLength(300);
    const split = diagnostics.filter((d) => d.code === 'tools_openai_split');
    expect(split).toHaveLength(1);
    expect(split[0]!.severity).toBe('info');
    expect(split[0]!.message).toMatch(/300 tools .* 3 files/);
  });

  it('keeps one file at exactly 128', () => {
    const { files, diagnostics } = emitTools(
      many(128),
      resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } }),
    );
    expect(
      files.filter((f) => f.path.startsWith('tools/openai/') && f.path.endsWith('.tools.json')).map((f) => f.path),
    ).toEqual(['tools/openai/big.tools.json']);
    expect(diagnostics.some((d) => d.code === 'tools_openai_split')).toBe(false);
  });
});
