/**
 * `buildToolBindings` from a real plan: names equal the tools artifact's, arguments route to the spec's
 * own parameter names (clashes renamed as the tool schema renames them), body encoding as the client's,
 * key carrier and limits, OP-5 inverse, security schemes.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { emitTools } from '../../../src/emit/tools/index.js';
import { strictFormOf } from '../../../packages/runtime/src/tools/strict/of-binding.js';
import { inlinePlan } from '../client/helpers/inline-spec.js';
import { shopPlan } from '../../runtime/tools/helpers/shop-spec.js';

const ok = { '200': { description: 'ok' } };
const CLASH = {
  openapi: '3.0.3',
  info: { title: 'c', version: '1' },
  paths: {
    '/items/{id}': {
      put: {
        operationId: 'put item',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'id', in: 'query', schema: { type: 'string' } },
          { name: 'Idempotency-Key', in: 'header', schema: { type: 'string', minLength: 20 } },
          { name: 'Authorization', in: 'header', schema: { type: 'string' } },
        ],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
            },
          },
        },
        responses: ok,
      },
    },
    '/raw': {
      post: {
        operationId: 'raw',
        requestBody: { content: { 'text/csv': { schema: { type: 'string' } } } },
        responses: ok,
      },
    },
  },
};

describe('buildToolBindings', () => {
  it('names match the tools artifact in every format', async () => {
    const plan = await shopPlan('bindings');
    const bindings = buildToolBindings(plan, resolveConfig());
    const all = resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } });
    const files = emitTools({ apis: [plan], diagnostics: [] }, all).files;
    for (const format of ['mcp', 'openai', 'anthropic'] as const) {
      const names = JSON.parse(
        files.find((f) => f.path === `tools/${format}/${plan.api.id}.names.json`)!.contents,
      ) as Record<string, string>;
      expect(Object.fromEntries(bindings.map((b) => [b.names[format], b.operation]))).toEqual(names);
    }
  });

  it('OP-5 inverse, security alternatives, strict parameters', async () => {
    const plan = await shopPlan('bindings');
    const bindings = buildToolBindings(plan, resolveConfig());
    const webhook = bindings.find((b) => b.clientMethod === 'createWebhook')!;
    // Neither the request nor the success response holds {webhook_id}: no inverse to record (a 2xx is done, cannot be undone).
    expect(webhook.mechanism).toBe('saga');
    expect(webhook.compensation).toBeUndefined();
    expect(plan.entries.find((e) => e.operation.key === webhook.operation)!.compensationAddress).toBeUndefined();
    expect(webhook.security).toEqual([[{ scheme: 'token', type: 'bearer' }]]);
    const order = bindings.find((b) => b.clientMethod === 'getOrder')!;
    expect(order.security).toEqual([
      [
        { scheme: 'account', type: 'apiKey', in: 'header', name: 'X-Account' },
        { scheme: 'token', type: 'bearer' },
      ],
    ]);
    expect(order.keyProperty).toBeUndefined();
    expect(strictFormOf(webhook).parameters).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['body', 'idempotency_key'],
    });
  });

  it('routes clashing names, hides auth and carrier headers, carries native key limits and the body encoding', async () => {
    const plan = await inlinePlan('bindings', 'clash.json', CLASH, {
      'PUT /items/{id}': {
        class: 'native-key',
        mechanism: 'native-key',
        carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'], maxLength: 40 },
        keyStrategy: 'caller',
      },
    });
    const [raw, put] = buildToolBindings(plan, resolveConfig());
    expect(put).toMatchObject({
      routes: [
        { property: 'id', in: 'path', name: 'id' },
        { property: 'query_id', in: 'query', name: 'id' },
      ],
      carrier: { in: 'header', name: 'Idempotency-Key' },
      keyLimits: { maxLength: 40, minLength: 20 },
      // The record's body (multipart states no media type: the runtime writes its boundary), and the argument.
      body: { property: 'body', encoding: 'multipart', required: false },
      blobs: true,
      keyProperty: 'idempotency_key',
      mechanism: 'native-key',
      clientMethod: 'putItem',
      method: 'PUT',
      path: '/items/{id}',
      pathParams: ['id'],
      queryParams: ['id'],
    });
    expect(put!.body).not.toHaveProperty('mediaType');
    expect(put!.ttlSeconds).toBe(86400); // the plan's (the API's) window, not the tools default
    expect(raw).toMatchObject({
      body: { encoding: 'text', mediaType: 'text/csv' },
      mechanism: 'fail-closed',
      ttlSeconds: 86400,
    });
  });

  it('is deterministic', async () => {
    const plan = await shopPlan('bindings');
    expect(JSON.stringify(buildToolBindings(plan, resolveConfig()))).toBe(
      JSON.stringify(buildToolBindings(plan, resolveConfig())),
    );
  });
});
