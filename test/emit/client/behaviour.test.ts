/**
 * The generated payments client against a real node:http server that counts side effects and injects faults
 * (README.md). Native key (OP-1): exactly one effect and the original result across a commit-then-timeout and
 * a duplicate call. Fail-closed: at most one effect, an ambiguous outcome is never retried automatically.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withRuntimeSources } from './helpers/import-client.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { resolveConfig } from '../../../src/config/types.js';
import {
  createMemoryStore,
  IdempotencyConflictError,
  IdempotencyOutcomeUnknownError,
} from '../../../packages/runtime/src/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { OUT_ROOT } from './helpers/compile.js';
import { fixturePlans } from './helpers/fixture-plans.js';

type Client = Record<string, (request: unknown, options?: unknown) => Promise<any>>;
let createClient: (options: Record<string, unknown>) => Client;
let server: FaultServer | undefined;

beforeAll(async () => {
  const { files } = emitClient({ apis: await fixturePlans(), diagnostics: [] }, resolveConfig());
  const dir = join(OUT_ROOT, 'behaviour');
  mkdirSync(dir, { recursive: true });
  // The tsconfig `paths` mapping of the compile tests, done by hand: vitest resolves the relative paths.
  const text = withRuntimeSources(files.find((f) => f.path === 'client/payments.gen.ts')!.contents, dir);
  writeFileSync(join(dir, 'payments.gen.ts'), text);
  const mod = (await import(join(dir, 'payments.gen.ts'))) as { createPaymentsClient: typeof createClient };
  createClient = mod.createPaymentsClient;
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const charge = { body: { amount: 1200, currency: 'usd' } };
const fast = { timeoutMs: 1000, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 } };

describe('OP-1 native key (POST /charges, Idempotency-Key header)', () => {
  it('commit-then-timeout: the retry carries the same key, one effect, the original result', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    server.inject({ kind: 'stall', ms: 2500 });
    const key = 'charge-key-0000000000000001';
    const first = await client.createCharge!(charge, { key });
    expect(server.effects).toBe(1);
    expect(server.requests).toHaveLength(2); // the stalled attempt, then the replay
    expect(new Set(server.requests.map((r) => r.key))).toEqual(new Set([key]));
    expect(first.wasReplay).toBe(true); // the answer that arrived is the server's stored one
    const again = await client.createCharge!(charge, { key });
    expect(server.effects).toBe(1);
    expect(again.result).toEqual(first.result);
    expect(again.wasReplay).toBe(true);
  });

  it('same key, different arguments: conflict, no second effect', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    const key = 'charge-key-0000000000000002';
    const first = await client.createCharge!(charge, { key });
    expect(first.wasReplay).toBe(false);
    await expect(client.createCharge!({ body: { amount: 9999, currency: 'usd' } }, { key })).rejects.toBeInstanceOf(
      IdempotencyConflictError,
    );
    expect(server.effects).toBe(1);
  });
});

describe('fail-closed (POST /sms, no native key)', () => {
  const sms = { body: { to: '+15550100', body: 'Your code is 1234' } };

  it('commit-then-timeout: outcome unknown, never called again automatically', async () => {
    server = await startFaultServer();
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    server.inject({ kind: 'stall', ms: 2500 });
    const options = { scope: { thread: 't-1', turn: '7' } };
    await expect(client.sendSms!(sms, options)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(server.effects).toBe(1);
    await expect(client.sendSms!(sms, options)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(server.effects).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('duplicate call: one effect, the replay is flagged with the original time', async () => {
    server = await startFaultServer();
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    const options = { key: 'sms-key-000000000000000001' };
    const first = await client.sendSms!(sms, options);
    const second = await client.sendSms!(sms, options);
    expect(server.effects).toBe(1);
    expect(first.wasReplay).toBe(false);
    expect(second.wasReplay).toBe(true);
    expect(second.result).toEqual(first.result);
    expect(second.originalCalledAt.getTime()).toBe(first.originalCalledAt.getTime());
  });

  it('same key, different arguments: conflict before any call', async () => {
    server = await startFaultServer();
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    const options = { key: 'sms-key-000000000000000002' };
    await client.sendSms!(sms, options);
    await expect(client.sendSms!({ body: { to: '+15550100', body: 'other' } }, options)).rejects.toBeInstanceOf(
      IdempotencyConflictError,
    );
    expect(server.effects).toBe(1);
  });
});

describe('OP-5 saga (POST /bookings)', () => {
  it('a duplicate returns the stored result and does not call again', async () => {
    server = await startFaultServer();
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), timeoutMs: 5000 });
    const options = { scope: { run: 'r-1' } };
    const first = await client.createBooking!({ body: { room: '101' } }, options);
    const second = await client.createBooking!({ body: { room: '101' } }, options);
    expect(server.effects).toBe(1);
    expect(second.wasReplay).toBe(true);
    expect(second.result).toEqual(first.result);
  });
});
