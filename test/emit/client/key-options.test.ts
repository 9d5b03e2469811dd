/**
 * Keys and scopes are checked by the generated client before anything is sent: an OP-1 key outside the
 * carrier's limits (runtime `validateKey`, docs/concepts.md#carriers), an empty scope, a missing or doubled option. An
 * explicit, persisted `{ key }` is accepted by every write, whatever its mechanism. Real node:http server.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emitClient } from '../../../src/emit/client/index.js';
import { resolveConfig } from '../../../src/config/types.js';
import { createMemoryStore, IdempotencyKeyInvalidError, reconcileReport } from '../../../packages/runtime/src/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { fixturePlans } from './helpers/fixture-plans.js';
import { importClient, type ClientFactory } from './helpers/import-client.js';
import { inlinePlan } from './helpers/inline-spec.js';

let createPayments: ClientFactory;
let server: FaultServer | undefined;

beforeAll(async () => {
  const { files } = emitClient({ apis: await fixturePlans(), diagnostics: [] }, resolveConfig());
  createPayments = await importClient('key-options', files, 'client/payments.gen.ts', 'createPaymentsClient');
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const charge = { body: { amount: 1200, currency: 'usd' } };
const sms = { body: { to: '+15550100', body: 'hi' } };

describe('OP-1 keys are validated before the request', () => {
  for (const [label, key] of [
    ['empty', ''],
    ['short', 'short'],
    ['300 chars', 'k'.repeat(300)],
    ['control char', 'key-with-newline\n0000'],
  ] as const) {
    it(`createCharge with a ${label} key: IdempotencyKeyInvalidError, nothing sent`, async () => {
      server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
      const c = createPayments({ baseUrl: server.url, store: createMemoryStore(), timeoutMs: 1000 });
      await expect(c.createCharge!(charge, { key })).rejects.toBeInstanceOf(IdempotencyKeyInvalidError);
      expect(server.requests).toHaveLength(0);
    });
  }

  it('a key within the limits goes out in the carrier', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const c = createPayments({ baseUrl: server.url, store: createMemoryStore(), timeoutMs: 1000 });
    await c.createCharge!(charge, { key: 'k'.repeat(255) });
    expect(server.requests.map((r) => r.key)).toEqual(['k'.repeat(255)]);
  });

  it('limits come from the carrier schema: minLength 8 / maxLength 40, and minLength 0 becomes 1', async () => {
    const spec = {
      openapi: '3.0.3',
      info: { title: 'limits', version: '1' },
      paths: {
        '/orders': {
          post: {
            operationId: 'createOrder',
            parameters: [
              { name: 'X-Request-Key', in: 'header', required: true, schema: { $ref: '#/components/schemas/Key' } },
            ],
            responses: { 200: { description: 'ok' } },
          },
        },
        '/notes': {
          post: {
            operationId: 'createNote',
            parameters: [{ name: 'key', in: 'query', schema: { type: 'string', minLength: 0, maxLength: 64 } }],
            responses: { 200: { description: 'ok' } },
          },
        },
      },
      components: { schemas: { Key: { allOf: [{ type: 'string', minLength: 8 }] } } },
    };
    const plan = await inlinePlan('key-limits', 'limits.json', spec, {
      'POST /orders': {
        class: 'native-key',
        mechanism: 'native-key',
        carrier: { in: 'header', name: 'X-Request-Key', path: ['X-Request-Key'], maxLength: 40 },
        keyStrategy: 'caller',
      },
      'POST /notes': {
        class: 'native-key',
        mechanism: 'native-key',
        carrier: { in: 'query', name: 'key', path: ['key'], maxLength: 64 },
        keyStrategy: 'caller',
      },
    });
    const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
    const text = files[0]!.contents;
    expect(text).toContain('keyLimits: { maxLength: 40, minLength: 8, apiLimits: ["maxLength","minLength"] }');
    expect(text).toContain('keyLimits: { maxLength: 64, minLength: 1, apiLimits: ["maxLength","minLength"] }');
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'X-Request-Key' } });
    const create = await importClient('key-limits', files, files[0]!.path, 'createLimitsClient');
    const c = create({ baseUrl: server.url, timeoutMs: 1000 });
    await expect(c.createOrder!({}, { key: '1234567' })).rejects.toBeInstanceOf(IdempotencyKeyInvalidError);
    await expect(c.createOrder!({}, { key: 'k'.repeat(41) })).rejects.toBeInstanceOf(IdempotencyKeyInvalidError);
    expect(server.requests).toHaveLength(0);
    await c.createOrder!({}, { key: '12345678' });
    expect(server.requests.map((r) => r.key)).toEqual(['12345678']);
  });
});

describe('key and scope options', () => {
  it('an empty scope is a TypeError before any request or stored row (fail-closed, OP-5, OP-3, OP-1 intent)', async () => {
    server = await startFaultServer();
    const store = createMemoryStore();
    const c = createPayments({ baseUrl: server.url, store, timeoutMs: 1000 });
    await expect(c.sendSms!(sms, { scope: {} })).rejects.toThrow(/scope.*at least one id/);
    await expect(c.createBooking!({ body: { room: '1' } }, { scope: {} })).rejects.toBeInstanceOf(TypeError);
    await expect(c.putBlob!({ path: { digest: 'd' }, body: { data: 'x' } }, { scope: {} })).rejects.toBeInstanceOf(
      TypeError,
    );
    await expect(c.createTransfer!({ body: { amount: 5 } }, { scope: {} })).rejects.toBeInstanceOf(TypeError);
    expect(server.requests).toHaveLength(0);
    expect(await reconcileReport(store, { now: Date.now() + 86_400_000 })).toEqual([]);
  });

  it('neither key nor scope, both at once, or a scope where a caller key is required: TypeError, nothing sent', async () => {
    server = await startFaultServer();
    const c = createPayments({ baseUrl: server.url, store: createMemoryStore(), timeoutMs: 1000 });
    await expect(c.sendSms!(sms, {})).rejects.toBeInstanceOf(TypeError);
    await expect(c.sendSms!(sms)).rejects.toBeInstanceOf(TypeError);
    await expect(c.sendSms!(sms, { key: 'k'.repeat(20), scope: { t: '1' } })).rejects.toThrow(/not both/);
    await expect(c.createMessage!({ body: { text: 'x' } }, { scope: { t: '1' } })).rejects.toThrow(/pass \{ key \}/);
    await expect(c.createCharge!(charge, { scope: { t: '1' } })).rejects.toBeInstanceOf(TypeError);
    expect(server.requests).toHaveLength(0);
  });

  it('an explicit key is accepted by fail-closed, OP-5 and intent-strategy OP-1 writes, and reused as given', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'body', name: 'idempotency_key' } });
    const c = createPayments({ baseUrl: server.url, store: createMemoryStore(), timeoutMs: 1000 });
    const nodeKey = 'langgraph-node-key-0000000001';
    const a = await c.sendSms!(sms, { key: nodeKey });
    const b = await c.sendSms!(sms, { key: nodeKey });
    expect(b.wasReplay).toBe(true);
    expect(b.result).toEqual(a.result);
    const booking = await c.createBooking!({ body: { room: '7' } }, { key: 'checkpoint-key-booking-00001' });
    expect(booking.externalId).toMatch(/^obj_/);
    await c.createTransfer!({ body: { amount: 5 } }, { key: 'checkpoint-key-transfer-0001' });
    expect(server.requests.at(-1)!.key).toBe('checkpoint-key-transfer-0001');
    expect(server.effects).toBe(3);
  });

  it('OP-3 without options keys by content: the second call replays', async () => {
    server = await startFaultServer();
    const c = createPayments({ baseUrl: server.url, store: createMemoryStore(), timeoutMs: 1000 });
    const blob = { path: { digest: 'd1' }, body: { data: 'x' } };
    await c.putBlob!(blob);
    expect((await c.putBlob!(blob, {})).wasReplay).toBe(true);
    expect(server.effects).toBe(1);
  });
});
