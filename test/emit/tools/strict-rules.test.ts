/** Names, native key arguments and OpenAI size limits. */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitTools, formatWindow } from '../../../src/emit/tools/index.js';
import { TOOL_NAME, assignNames } from '../../../src/emit/tools/names.js';
import { checkStrictName, checkStrictSchema } from './openai-strict.js';
import { entry, planOf, toolOp } from '../../helpers/plan.js';

type Obj = Record<string, any>;

describe('tool names', () => {
  it('sanitizes to ^[A-Za-z0-9_-]{1,64}$ and separates collisions deterministically', () => {
    const tools = [
      { key: 'POST /a', name: 'repos/create' },
      { key: 'POST /b', name: 'repos.create' },
      { key: 'POST /c', name: 'x'.repeat(80) },
      { key: 'POST /d', name: 'fine_name' },
    ];
    const names = assignNames(tools, TOOL_NAME);
    const values = [...names.values()];
    expect(new Set(values).size).toBe(4);
    for (const v of values) expect(checkStrictName(v)).toEqual([]);
    expect(names.get('POST /d')).toBe('fine_name');
    expect(names.get('POST /a')).toMatch(/^repos_create_[0-9a-f]{8}$/);
    expect(names.get('POST /c')).toHaveLength(64);
    expect(assignNames([...tools].reverse(), TOOL_NAME).get('POST /a')).toBe(names.get('POST /a'));
  });

  it('formats dedup windows', () => {
    expect(formatWindow(86_400)).toBe('24 hours');
    expect(formatWindow(300)).toBe('5 minutes');
    expect(formatWindow(3 * 86_400)).toBe('3 days');
    expect(formatWindow(90)).toBe('90 seconds');
  });
});

describe('a tool that already has a key argument (carrier in argument)', () => {
  const tool = toolOp('create_invoice', {
    type: 'object',
    properties: { amount: { type: 'number' }, request_id: { type: 'string', description: 'Client token.' } },
    required: ['amount'],
  });
  const plan = planOf('billing', [
    entry(tool, 'native-key', { carrier: { in: 'argument', name: 'request_id', path: ['request_id'] } }),
  ]);
  const res = emitTools(plan, resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } }));
  const mcp = JSON.parse(res.files.find((f) => f.path === 'tools/mcp/billing.tools.json')!.contents).tools[0] as Obj;

  it('keeps its own property, makes it required and adds no second key', () => {
    expect(Object.keys(mcp.inputSchema.properties)).toEqual(['amount', 'request_id']);
    expect(mcp.inputSchema.required).toEqual(['amount', 'request_id']);
    expect(mcp.inputSchema.properties.request_id.description).toMatch(
      /^Client token\. One new key per intended action/,
    );
  });
});

describe('OpenAI strict limits', () => {
  const deep = (levels: number): Obj =>
    levels === 0 ? { type: 'string' } : { type: 'object', properties: { next: deep(levels - 1) }, required: ['next'] };
  const bigEnum = Array.from({ length: 1200 }, (_, i) => `v${i}`);
  const tool = toolOp('store_tree', {
    type: 'object',
    properties: { tree: deep(14), shallow: { type: 'string' }, colour: { type: 'string', enum: bigEnum } },
    required: ['tree', 'shallow'],
  });
  const res = emitTools(
    planOf('deep', [entry(tool, 'fail-closed')]),
    resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } }),
  );
  const fn = JSON.parse(res.files.find((f) => f.path === 'tools/openai/deep.tools.json')!.contents)[0].function as Obj;

  it('degrades the largest arguments to JSON-encoded strings until the schema fits, with a warning', () => {
    expect(checkStrictSchema(fn.parameters)).toEqual([]);
    expect(fn.parameters.properties.tree.type).toBe('string');
    expect(fn.parameters.properties.colour.type).toEqual(['string', 'null']);
    expect(fn.parameters.properties.colour.enum).toBeUndefined();
    expect(fn.parameters.properties.shallow).toEqual({ type: 'string' });
    const warn = res.diagnostics.find((d) => d.code === 'tools_openai_limit_exceeded');
    expect(warn?.severity).toBe('warning');
    expect(warn?.message).toMatch(/levels of nesting.*enum values/);
  });

  it('keeps the MCP form whole', () => {
    const mcp = JSON.parse(res.files.find((f) => f.path === 'tools/mcp/deep.tools.json')!.contents).tools[0] as Obj;
    expect(mcp.inputSchema.properties.colour.enum).toHaveLength(1200);
  });
});
