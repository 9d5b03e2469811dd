/**
 * A native key carried in an optional form body (Twilio's `IdempotencyKey`): the runtime always sends a body
 * to carry the key, so a body with required fields of its own must be passed, in the client's request type
 * and in the tool's input schema alike (Twilio's `Callback` was missing on the wire). Real loader, IR,
 * classifier and emitters over a spec written to a temporary directory.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/classify/index.js';
import { resolveConfig } from '../../src/config/types.js';
import { emitClient } from '../../src/emit/client/index.js';
import { buildToolBindings } from '../../src/emit/handlers/bindings.js';
import { loadApis } from './client/helpers/spec-plan.js';

const form = (required: string[]) => ({
  required: false,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        properties: { Callback: { type: 'string' }, IdempotencyKey: { type: 'string' } },
        ...(required.length > 0 ? { required } : {}),
      },
    },
  },
});

const spec = {
  openapi: '3.0.3',
  info: { title: 'subs', version: '1' },
  paths: {
    '/subscriptions': {
      post: {
        operationId: 'createSubscription',
        requestBody: form(['Callback']),
        responses: { 201: { description: 'ok' } },
      },
    },
    '/pings': {
      post: {
        operationId: 'createPing',
        requestBody: form(['IdempotencyKey']),
        responses: { 201: { description: 'ok' } },
      },
    },
  },
};

async function planned() {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-body-required-'));
  writeFileSync(join(dir, 'subs.json'), JSON.stringify(spec));
  const { apis, errors } = await loadApis(['subs.json'], dir);
  expect(errors).toEqual([]);
  return classify(apis, resolveConfig());
}

describe('a body that carries the native key', () => {
  it('is required when its schema requires another field, in the tool schema and the client type', async () => {
    const plan = await planned();
    const entry = plan.apis[0]!.entries.find((e) => e.operation.key === 'POST /subscriptions')!;
    expect(entry.mechanism).toBe('native-key');
    expect(entry.carrier).toMatchObject({ in: 'form', name: 'IdempotencyKey' });
    const bindings = buildToolBindings(plan.apis[0]!, resolveConfig());
    const sub = bindings.find((b) => b.operation === 'POST /subscriptions')!;
    expect(sub.body?.required).toBe(true);
    expect(sub.inputSchema.required).toContain('body');
    const client = emitClient(plan, resolveConfig()).files[0]!.contents;
    expect(client).toMatch(/export type CreateSubscriptionRequest = \{[^}]*\n\s+body: /);
  });

  it('stays optional when the key is its only required field', async () => {
    const plan = await planned();
    const ping = buildToolBindings(plan.apis[0]!, resolveConfig()).find((b) => b.operation === 'POST /pings')!;
    expect(ping.body?.required).toBe(false);
    expect(ping.inputSchema.required ?? []).not.toContain('body');
    const client = emitClient(plan, resolveConfig()).files[0]!.contents;
    expect(client).toMatch(/export type CreatePingRequest = \{[^}]*\n\s+body\?: /);
  });
});
