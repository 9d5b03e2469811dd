import { describe, expect, it } from 'vitest';
import { apiIdFromFile, uniqueApiIds } from '../../src/ir/api-id.js';
import { buildApiModels } from '../../src/ir/index.js';
import { docOf } from './helpers.js';

describe('api.id', () => {
  it.each([
    ['specs/payments.openapi.yaml', 'payments'],
    ['specs/agent-tools.mcp.json', 'agent-tools'],
    ['mcp-filesystem.tools.json', 'mcp-filesystem'],
    ['specs/inventory.swagger.json', 'inventory'],
    ['corpus/train-travel-api/openapi.yaml', 'train-travel-api'],
    ['oai-v2.0-petstore-separate/spec/swagger.json', 'oai-v2.0-petstore-separate'],
    ['spec/swagger.json', 'spec'],
    ['openapi.yaml', 'openapi'],
    ['/abs/github-api.github.com.2020-07-30.json', 'github-api.github.com.2020-07-30'],
    ['apis/My API (v2)!.yml', 'my-api-v2'],
    ['apis/Zürich Transit.yaml', 'zurich-transit'],
  ])('%s → %s', (file, id) => {
    expect(apiIdFromFile(file)).toBe(id);
  });

  it('unique across inputs, suffixed by file order whatever the input order', () => {
    expect(
      uniqueApiIds([
        { file: 'b/openapi.yaml', id: 'x' },
        { file: 'a/openapi.yaml', id: 'x' },
        { file: 'c.yaml', id: 'x-2' },
      ]),
    ).toEqual(['x-3', 'x', 'x-2']);
  });

  it('buildApiModels applies it', () => {
    const spec = { openapi: '3.0.0', paths: {} };
    const { apis } = buildApiModels([docOf(spec, 'v2/pay.yaml'), docOf(spec, 'v1/pay.yaml')]);
    expect(apis.map((a) => [a.id, a.file])).toEqual([
      ['pay', 'v1/pay.yaml'],
      ['pay-2', 'v2/pay.yaml'],
    ]);
  });
});
