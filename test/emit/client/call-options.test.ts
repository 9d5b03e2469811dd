/**
 * Per-call options of every generated method: extra `headers` (Stripe-Account style; the key's own header
 * is never overridden) and an AbortSignal (before sending: nothing happened, the row is released; during
 * a native-key call: no further retries).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { createMemoryStore } from '../../../packages/runtime/src/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { fixturePlans } from './helpers/fixture-plans.js';
import { importClient, type ClientFactory } from './helpers/import-client.js';

let createClient: ClientFactory;
let server: FaultServer | undefined;

beforeAll(async () => {
  const { files } = emitClient({ apis: await fixturePlans(), diagnostics: [] }, resolveConfig());
  createClient = await importClient('call-options', files, 'client/payments.gen.ts', 'createPaymentsClient');
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { timeoutMs: 1000, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 } };
const charge = { body: { amount: 1200, currency: 'usd' } };

describe('per-call headers', () => {
  it('reach a read and a native-key write; the idempotency key header cannot be overridden', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const client = createClient({ baseUrl: server.url, headers: { 'x-client': 'c' }, ...fast });
    await client.getCharge!({ path: { chargeId: 'ch_1' } }, { headers: { 'Stripe-Account': 'acct_1' } });
    await client.createCharge!(charge, {
      key: 'call-opts-key-0000000001',
      headers: { 'Stripe-Account': 'acct_2', 'idempotency-key': 'hijack' },
    });
    const [read, write] = server.requests;
    expect(read.headers['stripe-account']).toBe('acct_1');
    expect(read.headers['x-client']).toBe('c');
    expect(write.headers['stripe-account']).toBe('acct_2');
    expect(write.key).toBe('call-opts-key-0000000001');
  });
});

describe('per-call AbortSignal', () => {
  it('aborted before sending a fail-closed write: no request, and the key is free for a later call', async () => {
    server = await startFaultServer();
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    const sms = { body: { to: '+15550100', body: 'hi' } };
    const options = { key: 'call-opts-sms-key-000001' };
    const err = await client.sendSms!(sms, { ...options, signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/aborted before sending/);
    expect(server.requests).toHaveLength(0);
    const later = await client.sendSms!(sms, options);
    expect(later.wasReplay).toBe(false);
    expect(server.effects).toBe(1);
  });

  it('aborted while a native-key call waits: it ends there, with no further same-key retries', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const client = createClient({ baseUrl: server.url, ...fast, timeoutMs: 5000 });
    server.inject({ kind: 'stall', ms: 3000 });
    const started = Date.now();
    const err = await client.createCharge!(charge, {
      key: 'call-opts-key-0000000002',
      signal: AbortSignal.timeout(300),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('store optional', () => {
  it('without a store: native-key writes work; a fail-closed write (JavaScript, past the types) names what is missing', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const client = createClient({ baseUrl: server.url, ...fast });
    expect((await client.createCharge!(charge, { key: 'no-store-key-00000000001' })).wasReplay).toBe(false);
    const err = await client.sendSms!({ body: { to: '+1', body: 'x' } }, { key: 'no-store-key-00000000002' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toMatch(/^POST \/sms needs a dedup store .*create the client with \{ store \}/);
    expect(server.requests).toHaveLength(1);
  });
});
