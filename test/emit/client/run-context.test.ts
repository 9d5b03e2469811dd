/**
 * Generated writes pass their RunContext to the HTTP caller (`run: ctx`), so the runtime may trust a
 * definite failure of the run's single request (README "Who may say nothing executed"): a 400 or a refused
 * connection releases the dedup row and a retry with the same key calls the server again, while a
 * commit-then-timeout stays ambiguous (IdempotencyOutcomeUnknownError, no second call). Real node:http
 * servers on 127.0.0.1, a real in-process store.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emitClient } from '../../../src/emit/client/index.js';
import { resolveConfig } from '../../../src/config/types.js';
import {
  createMemoryStore,
  HttpStatusError,
  IdempotencyNotSentError,
  IdempotencyOutcomeUnknownError,
  type DedupStore,
} from '../../../packages/runtime/src/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { fixturePlans } from './helpers/fixture-plans.js';
import { importClient, type ClientFactory } from './helpers/import-client.js';

let createClient: ClientFactory;
const servers: FaultServer[] = [];

beforeAll(async () => {
  const { files } = emitClient({ apis: await fixturePlans(), diagnostics: [] }, resolveConfig());
  createClient = await importClient('run-context', files, 'client/payments.gen.ts', 'createPaymentsClient');
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(): Promise<FaultServer> {
  const s = await startFaultServer();
  servers.push(s);
  return s;
}

const sms = { body: { to: '+15550100', body: 'Your code is 1234' } };
const client = (url: string, store: DedupStore) =>
  createClient({ baseUrl: url, store, timeoutMs: 1000, retry: { attempts: 1 } });

describe('fail-closed write (POST /sms) passes its run context', () => {
  it('a 400 surfaces as HttpStatusError and releases the row: the retry with the same key calls the server again', async () => {
    const server = await serve();
    const store = createMemoryStore();
    const c = client(server.url, store);
    server.inject({ kind: 'reject', status: 400, body: { error: 'to: not a phone number' } });
    const options = { key: 'sms-run-ctx-key-000000000001' };
    const err = await c.sendSms!(sms, options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect((err as HttpStatusError).status).toBe(400);
    expect(server.requests).toHaveLength(1);
    const retry = await c.sendSms!(sms, options);
    expect(retry.wasReplay).toBe(false);
    expect(server.requests).toHaveLength(2);
    expect(server.effects).toBe(1);
  });

  it('connection refused (server closed) releases the row: the retry runs against the server', async () => {
    const gone = await startFaultServer();
    const url = gone.url;
    await gone.close();
    const store = createMemoryStore();
    const options = { scope: { thread: 't-refused', turn: '1' } };
    await expect(client(url, store).sendSms!(sms, options)).rejects.toBeInstanceOf(IdempotencyNotSentError);
    const server = await serve();
    const retry = await client(server.url, store).sendSms!(sms, options);
    expect(retry.wasReplay).toBe(false);
    expect(server.requests).toHaveLength(1);
    expect(server.effects).toBe(1);
  });

  it('commit-then-timeout stays ambiguous: OutcomeUnknown now and on the retry, no second call', async () => {
    const server = await serve();
    const c = client(server.url, createMemoryStore());
    server.inject({ kind: 'stall', ms: 2500 });
    const options = { key: 'sms-run-ctx-key-000000000002' };
    await expect(c.sendSms!(sms, options)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    await expect(c.sendSms!(sms, options)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect(server.requests).toHaveLength(1);
    expect(server.effects).toBe(1);
  });
});

describe('OP-5 saga (POST /bookings) passes its run context to call', () => {
  it('a 400 releases the saga row: the retry with the same key books once', async () => {
    const server = await serve();
    const c = client(server.url, createMemoryStore());
    server.inject({ kind: 'reject', status: 400 });
    const options = { scope: { run: 'r-400' } };
    await expect(c.createBooking!({ body: { room: '101' } }, options)).rejects.toBeInstanceOf(HttpStatusError);
    const retry = await c.createBooking!({ body: { room: '101' } }, options);
    expect(retry.externalId).toBe('obj_1');
    expect(server.requests).toHaveLength(2);
    expect(server.effects).toBe(1);
  });

  it('commit-then-timeout stays ambiguous: no second booking', async () => {
    const server = await serve();
    const c = client(server.url, createMemoryStore());
    server.inject({ kind: 'stall', ms: 2500 });
    const options = { key: 'booking-run-ctx-key-0000001' };
    await expect(c.createBooking!({ body: { room: '102' } }, options)).rejects.toBeInstanceOf(
      IdempotencyOutcomeUnknownError,
    );
    await expect(c.createBooking!({ body: { room: '102' } }, options)).rejects.toBeInstanceOf(
      IdempotencyOutcomeUnknownError,
    );
    expect(server.requests).toHaveLength(1);
  });
});
