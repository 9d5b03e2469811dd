/**
 * Unknown outcomes settled by reading the API, end to end: the spec is classified (verification plans found
 * from it), the client generated and the tool runtime built from the same plan (what `serve` runs), and each
 * call's answer is lost on the wire against a local server that keeps state and filters its lists for real.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiPlan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { createMemoryStore } from '../../../packages/runtime/src/index.js';
import { createToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { stampOf } from '../../../packages/runtime/src/verify/lookup.js';
import { importClient } from '../../emit/client/helpers/import-client.js';
import { loadApis, planApis } from '../../emit/client/helpers/spec-plan.js';
import { SHOP_SPEC, startShopServer, type ShopServer } from './shop-server.js';

type Client = Record<string, (request: unknown, options?: unknown) => Promise<Record<string, unknown>>>;

let plan: ApiPlan;
let factory: (o: Record<string, unknown>) => Client;
let server: ShopServer;

const fast = { timeoutMs: 5000, retry: { attempts: 1 }, verify: { reads: 3, delayMs: 20 } };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-verify-'));
  writeFileSync(join(dir, 'shop.json'), JSON.stringify(SHOP_SPEC));
  const { apis, errors } = await loadApis(['shop.json'], dir);
  expect(errors).toEqual([]);
  plan = planApis(apis)[0]!;
  const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
  const file = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'))!;
  const name = /export function (create\w+Client)[<(]/.exec(file.contents)![1]!;
  factory = (await importClient('verify-e2e', files, file.path, name)) as unknown as typeof factory;
});

afterEach(async () => {
  await server?.close();
});

function entry(key: string) {
  return plan.entries.find((e) => e.operation.key === key)!;
}

describe('classify finds the plans in the spec', () => {
  it('natural key for POST /zones, client reference for POST /orders (metadata) and POST /events (external_id)', () => {
    expect(entry('POST /zones').mechanism).toBe('fail-closed');
    expect(entry('POST /zones').verification).toMatchObject({
      shape: 'natural-key',
      read: {
        operation: 'GET /zones/{name}',
        args: [{ in: 'path', name: 'name', value: { from: 'request', in: 'body', name: 'name' } }],
      },
    });
    expect(entry('POST /orders').verification).toMatchObject({
      shape: 'client-reference',
      stamp: { path: ['metadata', 'idemgen_key'] },
      read: { operation: 'GET /orders', items: ['data'] },
    });
    expect(entry('POST /events').verification).toMatchObject({
      shape: 'client-reference',
      stamp: { path: ['external_id'] },
      read: { operation: 'GET /events', items: [] },
    });
    const why = entry('POST /zones').reasons.find((r) => r.rule === 'verification_natural_key');
    expect(why?.detail).toContain('required body name addresses GET /zones/{name}');
  });
});

/** The two paths: the generated client's method, and the tool runtime `serve` builds from the same plan. */
const PATHS = ['client', 'tool'] as const;
type Path = (typeof PATHS)[number];

async function write(path: Path, op: string, body: Record<string, unknown>, key: string) {
  if (path === 'client') {
    const client = factory({ baseUrl: server.url, store: createMemoryStore(), ...fast });
    const method = { 'POST /zones': 'createZone', 'POST /orders': 'createOrder', 'POST /events': 'createEvent' }[op]!;
    try {
      const out = await client[method]!({ body }, { key });
      const verified = out.verified as { shape: string; evidence: string } | undefined;
      return { ok: true as const, result: out.result, wasReplay: out.wasReplay, verified };
    } catch (err) {
      return { ok: false as const, error: err as Error & { code?: string } };
    }
  }
  const tools = createToolRuntime({
    bindings: buildToolBindings(plan, resolveConfig()),
    baseUrl: server.url,
    store: createMemoryStore(),
    ...fast,
  });
  const b = tools.bindings.find((x) => x.operation === op)!;
  const out = await tools.call(b.names.mcp, { body, idempotency_key: key });
  if (!out.ok)
    return { ok: false as const, error: Object.assign(new Error(out.error.message), { code: out.error.code }) };
  return { ok: true as const, result: out.result, wasReplay: out.was_replay, verified: out.verified };
}

describe.each(PATHS)('through the %s path, the answer lost after the write', (path) => {
  it('a natural-key create is found by its read: 1 effect, the found zone, wasReplay and verified', async () => {
    server = await startShopServer();
    server.drop.set('/zones', 'commit');
    const out = await write(path, 'POST /zones', { name: 'example.org', ttl: 60 }, 'zone-key-0000000000000001');
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.result).toMatchObject({ name: 'example.org', ttl: 60 });
    expect(out.wasReplay).toBe(true);
    expect(out.verified).toMatchObject({ shape: 'natural-key', evidence: 'GET /zones/{name} answered 2xx' });
    expect(server.effects['/zones']).toBe(1);
    expect(server.reads['/zones/example.org']).toBe(1);
  });

  it('a stamped create is found by a metadata search: 1 effect, the stamp on the order', async () => {
    server = await startShopServer();
    server.drop.set('/orders', 'commit');
    const key = 'order-key-000000000000001';
    const out = await write(path, 'POST /orders', { item: 'lamp' }, key);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(server.effects['/orders']).toBe(1);
    const stored = server.orders[0]!;
    expect((stored.metadata as Record<string, string>).idemgen_key).toMatch(/^idem-[0-9a-f]{32}$/);
    expect(out.result).toEqual(stored);
    expect(out.wasReplay).toBe(true);
    expect(out.verified).toMatchObject({ shape: 'client-reference' });
    expect(out.verified!.evidence).toContain('one match');
  });

  it('a stamped create that did not happen is released and runs once, with the same stamp', async () => {
    server = await startShopServer();
    server.drop.set('/orders', 'before');
    const out = await write(
      path,
      'POST /orders',
      { item: 'chair', metadata: { note: 'x' } },
      'order-key-000000000000002',
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(server.effects['/orders']).toBe(1);
    expect(out.wasReplay).toBe(false);
    expect(out.verified).toBeUndefined();
    const meta = server.orders[0]!.metadata as Record<string, string>;
    expect(meta.note).toBe('x');
    expect(meta.idemgen_key).toMatch(/^idem-/);
    expect(server.reads['/orders']).toBe(3); // absent on every read of the settle window
  });

  it('an eventually consistent list finds the event on its second read', async () => {
    server = await startShopServer();
    server.eventLag = 1;
    server.drop.set('/events', 'commit');
    const out = await write(path, 'POST /events', { kind: 'signup' }, 'event-key-000000000000001');
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(server.effects['/events']).toBe(1);
    expect(server.reads['/events']).toBe(2);
    expect(out.wasReplay).toBe(true);
    expect(out.verified!.evidence).toContain('(read 2)');
    expect(out.result).toMatchObject({ kind: 'signup', external_id: expect.stringMatching(/^idem-/) });
  });

  it('two matches are ambiguous: the outcome stays unknown and nothing is run again', async () => {
    server = await startShopServer();
    const key = 'event-key-000000000000002';
    // An earlier event already carries this key's stamp (another process, a replayed import).
    server.events.push({ id: 'evt_old', kind: 'signup', external_id: stampOf(key, '') });
    server.drop.set('/events', 'commit');
    const out = await write(path, 'POST /events', { kind: 'signup' }, key);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(path === 'client' ? out.error.name : out.error.code).toMatch(/OutcomeUnknown|outcome_unknown/);
    expect(out.error.message).toContain('2 matches (ambiguous)');
    expect(server.effects['/events']).toBe(1);
  });
});
