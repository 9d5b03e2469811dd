import { describe, expect, it } from 'vitest';
import type { Carrier } from '../../src/classify/types.js';
import type { Operation, Parameter } from '../../src/ir/types.js';
import { classifyOne, codes, http, rules, tool } from './helpers.js';

const header = (name: string, extra: Partial<Parameter> = {}): Parameter => ({
  name,
  in: 'header',
  required: false,
  pointer: '/p',
  schema: { type: 'string' },
  ...extra,
});
const jsonBody = (schema: unknown) => ({
  required: true,
  pointer: '/rb',
  content: [
    {
      mediaType: 'application/json',
      schema: schema as Record<string, unknown>,
      pointer: '/rb/content/application~1json',
    },
  ],
});
const formBody = (schema: unknown) => ({
  required: true,
  pointer: '/rb',
  content: [
    {
      mediaType: 'application/x-www-form-urlencoded',
      schema: schema as Record<string, unknown>,
      pointer: '/rb/content/form',
    },
  ],
});

const root = {
  components: {
    schemas: {
      Key: { type: 'string', maxLength: 45 },
      Base: {
        type: 'object',
        properties: { idempotency_key: { $ref: '#/components/schemas/Key' } },
        required: ['idempotency_key'],
      },
      Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' }, name: { type: 'string' } } },
      IdempotencyToken: { type: 'string', maxLength: 64 },
      Payment: {
        allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { amount: { type: 'integer' } } }],
      },
    },
  },
  'x-fern-idempotency-headers': [{ header: 'Idempotency-Key', name: 'idempotencyKey' }],
};

// Step 1 (SOP §3 Step 1 → OP-1). Each case names the rule and the carrier it must find.
const cases: { rule: string; why: string; op: Operation; carrier: Carrier; ttl?: number; config?: object }[] = [
  {
    rule: 'native_header',
    why: 'Idempotency-Key header, optional',
    op: http('post', '/a', { parameters: [header('Idempotency-Key', { schema: { type: 'string', maxLength: 64 } })] }),
    carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'], required: false, maxLength: 64 },
  },
  {
    rule: 'native_header',
    why: 'header via $ref to components/parameters',
    op: http('post', '/b', {
      parameters: [header('X-Idempotency-Key', { required: true, ref: '#/components/parameters/Idem' })],
    }),
    carrier: { in: 'header', name: 'X-Idempotency-Key', path: ['X-Idempotency-Key'], required: true },
  },
  {
    rule: 'native_header',
    why: 'PayPal-Request-Id',
    op: http('post', '/c', { parameters: [header('PayPal-Request-Id')] }),
    carrier: { in: 'header', name: 'PayPal-Request-Id', path: ['PayPal-Request-Id'], required: false },
  },
  {
    rule: 'native_header',
    why: 'I-Twilio-Idempotency-Token',
    op: http('post', '/d', { parameters: [header('I-Twilio-Idempotency-Token')] }),
    carrier: {
      in: 'header',
      name: 'I-Twilio-Idempotency-Token',
      path: ['I-Twilio-Idempotency-Token'],
      required: false,
    },
  },
  {
    rule: 'native_header',
    why: 'vendor-prefixed x-apideck-idempotency-key (pattern)',
    op: http('post', '/e', { parameters: [header('x-apideck-idempotency-key', { required: true })] }),
    carrier: { in: 'header', name: 'x-apideck-idempotency-key', path: ['x-apideck-idempotency-key'], required: true },
  },
  {
    rule: 'native_header',
    why: 'config heuristics.keyHeaders',
    op: http('post', '/f', { parameters: [header('X-Dedupe')] }),
    carrier: { in: 'header', name: 'X-Dedupe', path: ['X-Dedupe'], required: false },
    config: { heuristics: { keyHeaders: ['x-dedupe'] } },
  },
  {
    rule: 'native_field',
    why: 'JSON body idempotency_key inside allOf and $ref, maxLength through the ref',
    op: http('post', '/g', { requestBody: jsonBody({ $ref: '#/components/schemas/Payment' }) }),
    carrier: { in: 'body', name: 'idempotency_key', path: ['idempotency_key'], required: true, maxLength: 45 },
  },
  {
    rule: 'native_field',
    why: 'form field IdempotencyKey (Twilio)',
    op: http('post', '/h', {
      requestBody: formBody({
        type: 'object',
        properties: { IdempotencyKey: { type: 'string' }, Amount: { type: 'string' } },
      }),
    }),
    carrier: { in: 'form', name: 'IdempotencyKey', path: ['IdempotencyKey'], required: false },
  },
  {
    rule: 'native_field',
    why: 'nested body field (one level down)',
    op: http('post', '/i', {
      requestBody: jsonBody({
        type: 'object',
        properties: { payment: { type: 'object', properties: { clientToken: { type: 'string' } } } },
      }),
    }),
    carrier: { in: 'body', name: 'payment.clientToken', path: ['payment', 'clientToken'], required: false },
  },
  {
    rule: 'native_field',
    why: 'Square v1 request_idempotence_key ("An optional key to ensure idempotence")',
    op: http('post', '/v1/{location_id}/refunds', {
      requestBody: jsonBody({
        type: 'object',
        properties: { payment_id: { type: 'string' }, request_idempotence_key: { type: 'string' } },
      }),
    }),
    carrier: { in: 'body', name: 'request_idempotence_key', path: ['request_idempotence_key'], required: false },
  },
  {
    rule: 'native_field',
    why: 'Storecove idempotencyGuid (pattern *idempotency*guid)',
    op: http('post', '/document_submissions', {
      requestBody: jsonBody({ type: 'object', properties: { idempotencyGuid: { type: 'string', maxLength: 36 } } }),
    }),
    carrier: { in: 'body', name: 'idempotencyGuid', path: ['idempotencyGuid'], required: false, maxLength: 36 },
  },
  {
    rule: 'native_field',
    why: 'AWS ClientIdempotencyToken (pattern)',
    op: http('post', '/p1', {
      requestBody: jsonBody({ type: 'object', properties: { ClientIdempotencyToken: { type: 'string' } } }),
    }),
    carrier: { in: 'body', name: 'ClientIdempotencyToken', path: ['ClientIdempotencyToken'], required: false },
  },
  {
    rule: 'native_field',
    why: 'AWS UniqueRequestToken typed by the IdempotencyToken schema (allOf $ref)',
    op: http('post', '/p2', {
      requestBody: jsonBody({
        type: 'object',
        properties: { UniqueRequestToken: { allOf: [{ $ref: '#/components/schemas/IdempotencyToken' }] } },
      }),
    }),
    carrier: { in: 'body', name: 'UniqueRequestToken', path: ['UniqueRequestToken'], required: false, maxLength: 64 },
  },
  {
    rule: 'native_field',
    why: 'form field (a Swagger 2 formData parameter, as the IR gives it)',
    op: http('post', '/j', {
      requestBody: formBody({ type: 'object', properties: { idempotency_key: {} }, required: ['idempotency_key'] }),
    }),
    carrier: { in: 'form', name: 'idempotency_key', path: ['idempotency_key'], required: true },
  },
  {
    rule: 'native_extension',
    why: 'x-idempotency-key names the header',
    op: http('post', '/k', { extensions: { 'x-idempotency-key': 'Idempotency-Key' } }),
    carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'] },
  },
  {
    rule: 'native_extension',
    why: 'x-idempotency object with carrier and ttl',
    op: http('post', '/l', {
      extensions: { 'x-idempotency': { key: { in: 'body', name: 'ref', maxLength: 100 }, ttlSeconds: 3600 } },
    }),
    carrier: { in: 'body', name: 'ref', path: ['ref'], maxLength: 100 },
    ttl: 3600,
  },
  {
    rule: 'native_extension',
    why: 'x-fern-idempotent + document x-fern-idempotency-headers',
    op: http('post', '/m', { extensions: { 'x-fern-idempotent': true } }),
    carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'] },
  },
  {
    rule: 'native_provider',
    why: 'Stripe registry: undeclared header on every POST, ≤ 255, 24 h',
    op: http('post', '/v1/charges', { servers: ['https://api.stripe.com/'] }),
    carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'], maxLength: 255, required: false },
    ttl: 86400,
  },
  {
    rule: 'native_provider',
    why: 'Adyen registry by host glob',
    op: http('post', '/v71/payments', { servers: ['https://checkout-test.adyen.com/v71'] }),
    carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'], maxLength: 64, required: false },
    ttl: 31 * 86400,
  },
  {
    rule: 'native_provider',
    why: 'Checkout.com only on its listed paths',
    op: http('post', '/payments/{id}/refunds', { servers: ['https://api.checkout.com'] }),
    carrier: { in: 'header', name: 'Cko-Idempotency-Key', path: ['Cko-Idempotency-Key'], required: false },
    ttl: 86400,
  },
  {
    rule: 'native_provider',
    why: 'config heuristics.providers',
    op: http('post', '/x', { servers: ['https://pay.internal'] }),
    carrier: { in: 'header', name: 'K', path: ['K'] },
    ttl: 60,
    config: {
      heuristics: {
        providers: [{ host: 'pay.internal', carrier: { in: 'header', name: 'K', path: ['K'] }, ttlSeconds: 60 }],
      },
    },
  },
];

describe('step 1: native key', () => {
  it.each(cases)('$rule: $why', ({ rule, op, carrier, ttl, config }) => {
    const { entry } = classifyOne(op, { root, config });
    expect(entry).toMatchObject({ class: 'native-key', mechanism: 'native-key', keyStrategy: 'caller' });
    expect(entry.carrier).toEqual(carrier);
    expect(rules(entry)).toContain(rule);
    expect(entry.ttlSeconds).toBe(ttl);
  });

  const notKeys: { why: string; op: Operation }[] = [
    { why: 'X-Request-Id is tracing, not a key', op: http('post', '/n', { parameters: [header('X-Request-Id')] }) },
    {
      why: 'client-request-id (Azure) is correlation, not a key',
      op: http('post', '/o', { parameters: [header('client-request-id')] }),
    },
    {
      why: 'client_token (Klarna) is a JS SDK token',
      op: http('post', '/p', {
        requestBody: jsonBody({ type: 'object', properties: { client_token: { type: 'string' } } }),
      }),
    },
    {
      why: 'request_id is a tracking id',
      op: http('post', '/q', {
        requestBody: jsonBody({ type: 'object', properties: { request_id: { type: 'string' } } }),
      }),
    },
    {
      why: 'a readOnly key field is response-only',
      op: http('post', '/r', {
        requestBody: jsonBody({ type: 'object', properties: { idempotency_key: { type: 'string', readOnly: true } } }),
      }),
    },
    {
      why: 'Stripe GET is not keyed (and is a read)',
      op: http('delete', '/v1/customers/{id}', { servers: ['https://api.stripe.com/'] }),
    },
    {
      why: 'Checkout.com outside its listed paths',
      op: http('post', '/customers', { servers: ['https://api.checkout.com'] }),
    },
    {
      why: 'IdempotencyFlag (Plaid) is a mode switch, not a key',
      op: http('post', '/t', {
        requestBody: jsonBody({ type: 'object', properties: { IdempotencyFlag: { type: 'boolean' } } }),
      }),
    },
    {
      why: 'is_idempotent is a flag',
      op: http('post', '/u', {
        requestBody: jsonBody({ type: 'object', properties: { is_idempotent: { type: 'boolean' } } }),
      }),
    },
    {
      why: 'a property whose $ref does not resolve is skipped (vercel.com threw here)',
      op: http('post', '/v', {
        requestBody: jsonBody({ type: 'object', properties: { meta: { $ref: '#/components/schemas/Missing' } } }),
      }),
    },
    {
      why: 'a field whose description only mentions a key (Adyen test-scenario field) is not one',
      op: http('post', '/w', {
        requestBody: jsonBody({
          type: 'object',
          properties: {
            additionalData: {
              type: 'object',
              properties: {
                RequestedTestErrorResponseCode: {
                  type: 'string',
                  description:
                    'Triggers test scenarios. A subsequent request using the same idempotency key will be processed as if it was the first request.',
                },
              },
            },
          },
        }),
      }),
    },
    {
      why: 'Chime ExternalUserId is "an idempotency token" but also the user identity',
      op: http('post', '/x', {
        requestBody: jsonBody({
          type: 'object',
          properties: {
            ExternalUserId: {
              type: 'string',
              description:
                'The Amazon Chime SDK external user ID. An idempotency token. Links the attendee to an identity.',
            },
          },
        }),
      }),
    },
    {
      why: 'a self-referencing schema terminates',
      op: http('post', '/s', { requestBody: jsonBody({ $ref: '#/components/schemas/Node' }) }),
    },
  ];
  it.each(notKeys)('not native: $why', ({ op }) => {
    const { entry } = classifyOne(op, { root });
    expect(entry.mechanism).not.toBe('native-key');
    expect(entry.carrier).toBeNull();
  });

  it('native_argument: a tool with a key property is native with carrier argument', () => {
    const op = tool('charge_card', {
      inputSchema: {
        type: 'object',
        properties: { amount: { type: 'integer' }, idempotency_key: { type: 'string', maxLength: 255 } },
        required: ['amount', 'idempotency_key'],
      },
    });
    const { entry, plan } = classifyOne(op);
    expect(entry).toMatchObject({
      class: 'native-key',
      mechanism: 'native-key',
      toolBoundary: 'tool-dedup',
      keyStrategy: 'intent',
      carrier: { in: 'argument', name: 'idempotency_key', path: ['idempotency_key'], required: true, maxLength: 255 },
    });
    expect(codes(plan)).not.toContain('tool_missing_required_key');
  });

  it('extension_contradicts_header: extension names another header than the declared one', () => {
    const op = http('post', '/t', {
      extensions: { 'x-idempotency-key': 'X-Other-Key' },
      parameters: [header('Idempotency-Key', { pointer: '/paths/~1t/post/parameters/0' })],
    });
    const { entry, plan } = classifyOne(op);
    expect(entry.mechanism).toBe('native-key');
    expect(rules(entry)).toContain('native_extension');
    expect(plan.diagnostics.find((d) => d.code === 'extension_contradicts_header')).toMatchObject({
      severity: 'error',
      file: 'spec.yaml',
      pointer: '/paths/~1t/post/x-idempotency-key',
    });
  });

  it('extension_contradicts_header: x-idempotency: none while a key header is declared', () => {
    const op = http('post', '/u', {
      extensions: { 'x-idempotency': 'none' },
      parameters: [header('Idempotency-Key', { pointer: '/hdr' })],
    });
    const { entry, plan } = classifyOne(op);
    expect(entry.mechanism).toBe('fail-closed');
    expect(plan.diagnostics.find((d) => d.code === 'extension_contradicts_header')?.pointer).toBe('/hdr');
  });

  it('a declared header beats the provider registry (stronger evidence first)', () => {
    const op = http('post', '/v1/charges', {
      servers: ['https://api.stripe.com'],
      parameters: [header('Idempotency-Key', { required: true })],
    });
    const { entry } = classifyOne(op);
    expect(rules(entry)).toContain('native_header');
    expect(rules(entry)).not.toContain('native_provider');
  });
});
