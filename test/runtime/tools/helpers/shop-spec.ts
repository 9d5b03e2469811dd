/**
 * A small API shaped like the calls agents make most: a Twilio-style form write (optional fields, an account id in
 * the path), a Stripe-style JSON write with a native Idempotency-Key header and free-form `metadata`, a
 * fail-closed JSON write, a read with query/header parameters, and an OP-5 create with its inverse.
 * Planned by the real loader and IR, with the mechanisms fixed per operation; bindings by the real builder.
 */
import type { ApiPlan } from '../../../../src/classify/types.js';
import { resolveConfig } from '../../../../src/config/types.js';
import { buildToolBindings } from '../../../../src/emit/handlers/bindings.js';
import type { ToolBinding } from '../../../../packages/runtime/src/tools/index.js';
import { inlinePlan } from '../../../emit/client/helpers/inline-spec.js';

const message = { type: 'object', properties: { id: { type: 'string' } } };
const ok = (schema: unknown = message) => ({
  '200': { description: 'ok', content: { 'application/json': { schema } } },
});

const SHOP_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1.0.0' },
  components: {
    securitySchemes: {
      token: { type: 'http', scheme: 'bearer' },
      account: { type: 'apiKey', in: 'header', name: 'X-Account' },
    },
  },
  security: [{ token: [] }],
  paths: {
    '/Accounts/{AccountSid}/Messages.json': {
      post: {
        operationId: 'createMessage',
        summary: 'Send an SMS',
        parameters: [{ name: 'AccountSid', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['To', 'Body'],
                properties: {
                  To: { type: 'string', pattern: '^\\+[0-9]{6,15}$' },
                  From: { type: 'string' },
                  Body: { type: 'string' },
                  StatusCallback: { type: 'string' },
                  MaxPrice: { type: 'number' },
                  ValidityPeriod: { type: 'integer' },
                },
              },
            },
          },
        },
        responses: ok(),
      },
    },
    '/v1/customers': {
      post: {
        operationId: 'createCustomer',
        summary: 'Create a customer',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['email'],
                properties: {
                  email: { type: 'string' },
                  name: { type: 'string' },
                  metadata: { type: 'object', additionalProperties: { type: 'string' } },
                  address: { type: 'object', properties: { city: { type: 'string' }, line2: { type: 'string' } } },
                },
              },
            },
          },
        },
        responses: ok(),
      },
    },
    '/notes': {
      post: {
        operationId: 'createNote',
        summary: 'Write a note',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
            },
          },
        },
        responses: ok(),
      },
    },
    '/orders/{order_id}': {
      get: {
        operationId: 'getOrder',
        summary: 'Read an order',
        security: [{ token: [], account: [] }],
        parameters: [
          { name: 'order_id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'expand', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: ok(),
      },
    },
    '/webhooks': {
      post: {
        operationId: 'createWebhook',
        summary: 'Subscribe',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } },
            },
          },
        },
        responses: ok(),
      },
    },
    '/webhooks/{webhook_id}': {
      delete: {
        operationId: 'deleteWebhook',
        parameters: [{ name: 'webhook_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'gone' } },
      },
    },
  },
};

export async function shopPlan(dir: string): Promise<ApiPlan> {
  return inlinePlan(dir, 'shop.json', SHOP_SPEC, {
    'POST /v1/customers': {
      class: 'native-key',
      mechanism: 'native-key',
      carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'], maxLength: 255 },
      keyStrategy: 'caller',
      ttlSeconds: 86400,
    },
    'POST /webhooks': {
      class: 'compensatable',
      mechanism: 'saga',
      keyStrategy: 'intent',
      compensation: 'DELETE /webhooks/{webhook_id}',
    },
  });
}

export async function shopBindings(dir: string): Promise<ToolBinding[]> {
  return buildToolBindings(await shopPlan(dir), resolveConfig());
}

export const KEY = 'key-0123456789abcdef';
export const KEY2 = 'key-fedcba9876543210';
