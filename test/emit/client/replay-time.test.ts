/**
 * SOP Step 7 through the generated payments client and a real node:http server: `originalCalledAt` is the
 * time of the original call — the stored row's for a local (dedup-store) write, and unset for a native-key
 * replay (the replay's own `Date` header is when the replay was answered). One outcome-unknown error type for
 * every mechanism: a native-key call that used up its retries throws IdempotencyOutcomeUnknownError too.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import {
  createMemoryStore,
  IdempotencyAmbiguousError,
  IdempotencyError,
  IdempotencyOutcomeUnknownError,
} from '../../../packages/runtime/src/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { fixturePlans } from './helpers/fixture-plans.js';
import { importClient, type ClientFactory } from './helpers/import-client.js';

let createClient: ClientFactory;
let server: FaultServer | undefined;

beforeAll(async () => {
  const { files } = emitClient({ apis: await fixturePlans(), diagnostics: [] }, resolveConfig());
  createClient = await importClient('replay-time', files, 'client/payments.gen.ts', 'createPaymentsClient');
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fast = { timeoutMs: 1000, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 } };

describe('originalCalledAt', () => {
  it('a local (fail-closed) replay reports the first call’s time, not its own', async () => {
    server = await startFaultServer();
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    const sms = { body: { to: '+15550100', body: 'code 1234' } };
    const before = Date.now();
    const first = await client.sendSms!(sms, { key: 'sms-time-key-000000000001' });
    const after = Date.now();
    await sleep(1200);
    const replay = await client.sendSms!(sms, { key: 'sms-time-key-000000000001' });
    expect(replay.wasReplay).toBe(true);
    expect(replay.originalCalledAt.getTime()).toBe(first.originalCalledAt.getTime());
    expect(replay.originalCalledAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(replay.originalCalledAt.getTime()).toBeLessThanOrEqual(after);
    expect(server.effects).toBe(1);
  });

  it('a native-key first call has its own time; a replay without a header naming the original time leaves it unset', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const client = createClient({ baseUrl: server.url, ...fast });
    const charge = { body: { amount: 1200, currency: 'usd' } };
    const before = Date.now();
    const first = await client.createCharge!(charge, { key: 'charge-time-key-00000001' });
    expect(first.wasReplay).toBe(false);
    expect(first.originalCalledAt.getTime()).toBeGreaterThanOrEqual(before);
    await sleep(1100); // the replay's Date header is now ≥ 1 s later than the first call
    const replay = await client.createCharge!(charge, { key: 'charge-time-key-00000001' });
    expect(replay.wasReplay).toBe(true);
    expect(server.requests.map((r) => r.key)).toEqual(['charge-time-key-00000001', 'charge-time-key-00000001']);
    expect(server.effects).toBe(1);
    expect(replay.originalCalledAt).toBeUndefined();
    expect('originalCalledAt' in replay).toBe(false);
  });

  it('commit-then-timeout on a native key: the answer that arrives is a replay, so no time is invented', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const client = createClient({ baseUrl: server.url, ...fast });
    server.inject({ kind: 'stall', ms: 2500 });
    const got = await client.createCharge!(
      { body: { amount: 5, currency: 'usd' } },
      { key: 'charge-time-key-00000002' },
    );
    expect(got.wasReplay).toBe(true);
    expect(got.originalCalledAt).toBeUndefined();
    expect(server.effects).toBe(1);
  });
});

describe('one outcome-unknown error type', () => {
  it('a native-key call whose every attempt is reset throws IdempotencyOutcomeUnknownError with a code, key and operation', async () => {
    // Every connection is dropped after the request arrives: each attempt's outcome is unknown.
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    server.always({ kind: 'drop' });
    const client = createClient({ baseUrl: server.url, ...fast });
    const err = await client.createCharge!(
      { body: { amount: 7, currency: 'usd' } },
      { key: 'charge-reset-key-0000001' },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(err).toBeInstanceOf(IdempotencyError);
    expect(err).toBeInstanceOf(IdempotencyAmbiguousError); // the deprecated alias still matches
    expect(err).toMatchObject({
      code: 'idempotency_outcome_unknown',
      key: 'charge-reset-key-0000001',
      operation: 'POST /charges',
    });
    expect(server.requests.map((r) => r.key)).toEqual(Array(4).fill('charge-reset-key-0000001'));
    expect(server.effects).toBe(0);
  });
});
