/**
 * The generated client puts a native key back exactly where the spec carries it. The keys fixture
 * goes through the real loader, IR, classifier and client emitter; the client type-checks under --strict and
 * runs against a real node:http server that dedupes on the key at `data.attributes.idempotencyKey`.
 */
import { resolve, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emitClient } from '../../../src/emit/client/index.js';
import { classify } from '../../../src/classify/index.js';
import { resolveConfig } from '../../../src/config/types.js';
import { createMemoryStore } from '../../../packages/runtime/src/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { OUT_ROOT, typeCheck, writeBatch } from './helpers/compile.js';
import { withRuntimeSources } from './helpers/import-client.js';
import { loadApis } from './helpers/spec-plan.js';

type Client = Record<string, (request: unknown, options?: unknown) => Promise<any>>;
let createClient: (options: Record<string, unknown>) => Client;
let source = '';
let server: FaultServer | undefined;
const DIR = resolve(import.meta.dirname, '../../fixtures/keys');

// Compiles only if the key is left out of the caller's body type and each oneOf variant keeps its own fields.
const USAGE = `import { createShapesClient } from './shapes.gen.js';
const client = createShapesClient({ baseUrl: 'http://127.0.0.1:1', store: undefined as never });
export const gb = () => client.jsonApiOneOf({ body: { data: { type: 'gb_bank_account', attributes: { sortCode: '12-34-56' } } } }, { key: 'k'.repeat(24) });
export const us = () => client.jsonApiOneOf({ body: { data: { type: 'us_bank_account', attributes: { routingNumber: '021000021' } } } }, { key: 'k'.repeat(24) });
// @ts-expect-error a GB account has no routing number: the union was not collapsed
export const wrong = () => client.jsonApiOneOf({ body: { data: { type: 'gb_bank_account', attributes: { routingNumber: '1' } } } }, { key: 'k'.repeat(24) });
`;

beforeAll(async () => {
  const { apis, errors } = await loadApis(['shapes.yaml'], DIR);
  expect(errors).toEqual([]);
  const { files } = emitClient(classify(apis, resolveConfig()), resolveConfig());
  source = files.find((f) => f.path === 'client/shapes.gen.ts')!.contents;
  const paths = writeBatch(
    'nested-key',
    new Map([
      ['shapes.gen.ts', source],
      ['usage.ts', USAGE],
    ]),
  );
  expect(Object.fromEntries(typeCheck(paths))).toEqual({ 'shapes.gen.ts': [], 'usage.ts': [] });
  writeBatch(
    'nested-key-run',
    new Map([['shapes.gen.ts', withRuntimeSources(source, join(OUT_ROOT, 'nested-key-run'))]]),
  );
  const mod = (await import(join(OUT_ROOT, 'nested-key-run', 'shapes.gen.ts'))) as {
    createShapesClient: typeof createClient;
  };
  createClient = mod.createShapesClient;
}, 120_000);

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { timeoutMs: 1000, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 } };
const path = ['data', 'attributes', 'idempotencyKey'];

describe('oneOf + JSON:API key at data.attributes.idempotencyKey', () => {
  it('the emitted call names the exact carrier path', () => {
    expect(source).toContain(
      'carrier: { in: "body", name: "data.attributes.idempotencyKey", path: ["data","attributes","idempotencyKey"] },',
    );
  });

  it('sends the key at the nested path of the chosen variant: the exact request body', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'body', name: 'idempotencyKey', path } });
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    const key = 'bank-account-key-00000001';
    await client.jsonApiOneOf!(
      { body: { data: { type: 'gb_bank_account', attributes: { sortCode: '12-34-56' } } } },
      { key },
    );
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body).toBe(
      JSON.stringify({ data: { type: 'gb_bank_account', attributes: { sortCode: '12-34-56', idempotencyKey: key } } }),
    );
  });

  it('creates the envelope objects when the body lacks them', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'body', name: 'idempotencyKey', path } });
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    await client.jsonApi!({ body: {} }, { key: 'jsonapi-envelope-key-0001' });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      data: { attributes: { idempotencyKey: 'jsonapi-envelope-key-0001' } },
    });
  });

  it('commit-then-timeout: the retry carries the same key at the same path, one effect, the original result', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'body', name: 'idempotencyKey', path } });
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    server.inject({ kind: 'stall', ms: 2500 });
    const key = 'bank-account-key-00000002';
    const body = { data: { type: 'us_bank_account', attributes: { routingNumber: '021000021' } } };
    const first = await client.jsonApiOneOf!({ body }, { key });
    expect(server.effects).toBe(1);
    expect(server.effectsFor(key)).toBe(1);
    expect(server.requests).toHaveLength(2); // the stalled attempt, then the replay
    expect(new Set(server.requests.map((r) => r.body))).toEqual(
      new Set([
        JSON.stringify({
          data: { type: 'us_bank_account', attributes: { routingNumber: '021000021', idempotencyKey: key } },
        }),
      ]),
    );
    expect(first.wasReplay).toBe(true);
    const again = await client.jsonApiOneOf!({ body }, { key });
    expect(server.effects).toBe(1);
    expect(again.result).toEqual(first.result);
  });

  it('a key shorter than the field minLength (20) is refused before any request', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'body', name: 'idempotencyKey', path } });
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    await expect(
      client.jsonApiOneOf!(
        { body: { data: { type: 'us_bank_account', attributes: { routingNumber: '1' } } } },
        { key: 'short-key-0000001' },
      ),
    ).rejects.toThrow('at least 20 required');
    expect(server.requests).toHaveLength(0);
  });
});

describe('anyOf with the key at a different path per variant: one path per variant', () => {
  it('the body that has the envelope gets the key inside it; the flat one at the top', async () => {
    server = await startFaultServer();
    const client = createClient({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    await client.anyOfPaths!({ body: { request: {} } }, { key: 'any-of-paths-key-000001' });
    await client.anyOfPaths!({ body: {} }, { key: 'any-of-paths-key-000002' });
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([
      { request: { idempotency_key: 'any-of-paths-key-000001' } },
      { idempotency_key: 'any-of-paths-key-000002' },
    ]);
  });
});
