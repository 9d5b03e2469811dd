import { describe, expect, it } from 'vitest';
import { buildApiModel } from '../../src/ir/index.js';
import type { ToolOperation } from '../../src/ir/types.js';
import { docOf } from './helpers.js';

const schema = { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] };

function tools(
  root: unknown,
  file = 'agent.tools.json',
): { ops: ToolOperation[]; diagnostics: { code: string; pointer?: string }[]; format: string; id: string } {
  const { api, diagnostics } = buildApiModel(docOf(root, file));
  return { ops: api.operations as ToolOperation[], diagnostics, format: api.format, id: api.id };
}

describe('buildApiModel: tool lists', () => {
  it('MCP: inputSchema, outputSchema, annotations, title (tool or annotations), extensions', () => {
    const { ops, format, id, diagnostics } = tools({
      tools: [
        {
          name: 'send_email',
          title: 'Send',
          description: 'd',
          inputSchema: schema,
          outputSchema: { type: 'object' },
          annotations: { destructiveHint: false, openWorldHint: true },
          'x-owner': 'me',
        },
        { name: 'list-mail', inputSchema: { type: 'object' }, annotations: { title: 'List mail', readOnlyHint: true } },
      ],
    });
    expect([format, id, diagnostics]).toEqual(['mcp', 'agent', []]);
    expect(ops.map((o) => [o.key, o.name, o.title, o.format])).toEqual([
      ['tool:list-mail', 'list_mail', 'List mail', 'mcp'],
      ['tool:send_email', 'send_email', 'Send', 'mcp'],
    ]);
    expect(ops[1]).toMatchObject({
      toolName: 'send_email',
      description: 'd',
      inputSchema: schema,
      outputSchema: { type: 'object' },
      annotations: { destructiveHint: false, openWorldHint: true },
      extensions: { 'x-owner': 'me' },
      source: { file: 'agent.tools.json', pointer: '/tools/0' },
    });
    expect(ops[0].annotations).toEqual({ title: 'List mail', readOnlyHint: true });
  });

  it('an MCP tool without annotations keeps annotations undefined (spec defaults apply later)', () => {
    const { ops } = tools({ result: { tools: [{ name: 'rm', inputSchema: schema }] } });
    expect(ops[0].annotations).toBeUndefined();
    expect(ops[0].source.pointer).toBe('/result/tools/0');
  });

  it('OpenAI chat: function.parameters and strict; missing parameters → empty object schema', () => {
    const { ops, format } = tools([
      { type: 'function', function: { name: 'charge_card', description: 'c', parameters: schema, strict: true } },
      { type: 'function', function: { name: 'ping' } },
    ]);
    expect(format).toBe('openai-chat');
    expect(ops.map((o) => [o.key, o.strict, o.inputSchema])).toEqual([
      ['tool:charge_card', true, schema],
      ['tool:ping', undefined, { type: 'object', properties: {} }],
    ]);
    expect(ops[0].source.pointer).toBe('/0');
  });

  it('OpenAI Responses flat shape', () => {
    const { ops, format } = tools({ tools: [{ type: 'function', name: 'book', parameters: schema, strict: false }] });
    expect(format).toBe('openai-responses');
    expect(ops[0]).toMatchObject({ key: 'tool:book', inputSchema: schema, strict: false, format: 'openai-responses' });
  });

  it('Anthropic input_schema', () => {
    const { ops, format } = tools([{ name: 'refund', description: 'r', input_schema: schema }]);
    expect(format).toBe('anthropic');
    expect(ops[0]).toMatchObject({ key: 'tool:refund', inputSchema: schema, description: 'r' });
  });

  it('duplicate tool names and junk items are diagnostics; keys stay unique', () => {
    const { ops, diagnostics } = tools({
      tools: [{ name: 'a', inputSchema: {} }, 42, { name: 'a', inputSchema: {} }, { name: 'b', input_schema: {} }],
    });
    expect(ops.map((o) => [o.key, o.name])).toEqual([
      ['tool:a', 'a'],
      ['tool:a#2', 'a2'],
      ['tool:b', 'b'],
    ]);
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['invalid_tool', '/tools/1'],
      ['duplicate_tool_name', '/tools/2/name'],
      ['mixed_tool_formats', '/tools/3'],
      ['operation_name_collision', '/tools/2'],
    ]);
  });
});
