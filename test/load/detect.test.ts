import { describe, expect, it } from 'vitest';
import { detectDocument } from '../../src/load/detect.js';

const mcpTool = { name: 'send_email', inputSchema: { type: 'object' } };

describe('detectDocument: recognised by content, never by file name', () => {
  it.each([
    ['OpenAPI 3.0', { openapi: '3.0.3', paths: {} }, { kind: 'openapi', format: 'openapi3.0' }],
    ['OpenAPI 3.1', { openapi: '3.1.0' }, { kind: 'openapi', format: 'openapi3.1' }],
    ['OpenAPI 3.2 read as 3.1', { openapi: '3.2.0' }, { kind: 'openapi', format: 'openapi3.1' }],
    ['Swagger 2.0', { swagger: '2.0' }, { kind: 'openapi', format: 'openapi2' }],
    [
      'Swagger 2.0 unquoted in YAML (the number 2)',
      { swagger: 2.0 },
      { kind: 'openapi', format: 'openapi2', version: '2.0' },
    ],
    ['OpenAPI 3.0 unquoted in YAML (the number 3)', { openapi: 3.0 }, { kind: 'openapi', format: 'openapi3.0' }],
    ['OpenAPI 3.1 unquoted in YAML', { openapi: 3.1 }, { kind: 'openapi', format: 'openapi3.1' }],
    ['Swagger 1.2', { swaggerVersion: '1.2' }, { kind: 'unsupported', version: '1.2' }],
    ['OpenAPI 4', { openapi: '4.0.0' }, { kind: 'unsupported', pointer: '/openapi' }],
    ['MCP tools/list', { tools: [mcpTool] }, { kind: 'tools', format: 'mcp', pointer: '/tools' }],
    ['MCP bare array', [mcpTool], { kind: 'tools', format: 'mcp', pointer: '' }],
    [
      'MCP JSON-RPC result',
      { jsonrpc: '2.0', id: 1, result: { tools: [mcpTool] } },
      { kind: 'tools', format: 'mcp', pointer: '/result/tools' },
    ],
    ['MCP empty tools/list', { tools: [] }, { kind: 'tools', format: 'mcp' }],
    [
      'OpenAI chat',
      [{ type: 'function', function: { name: 'f', parameters: {} } }],
      { kind: 'tools', format: 'openai-chat' },
    ],
    [
      'OpenAI chat wrapped',
      { tools: [{ type: 'function', function: { name: 'f' } }] },
      { kind: 'tools', format: 'openai-chat' },
    ],
    [
      'OpenAI Responses',
      [{ type: 'function', name: 'f', parameters: {} }],
      { kind: 'tools', format: 'openai-responses' },
    ],
    [
      'Anthropic',
      [{ name: 'f', description: 'd', input_schema: { type: 'object' } }],
      { kind: 'tools', format: 'anthropic' },
    ],
    [
      'Anthropic wrapped',
      { tools: [{ name: 'f', input_schema: { type: 'object' } }] },
      { kind: 'tools', format: 'anthropic' },
    ],
    ['package.json', { name: 'x', version: '1.0.0' }, { kind: 'unknown' }],
    ['bare empty array', [], { kind: 'unknown' }],
    ['array of strings', ['a'], { kind: 'unknown' }],
    ['scalar', 'hello', { kind: 'unknown' }],
  ])('%s', (_name, value, expected) => {
    expect(detectDocument(value)).toMatchObject(expected);
  });
});
