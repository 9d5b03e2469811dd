/**
 * The OASIS Repeatable Requests pair end to end. The fixture goes through the real loader, IR,
 * classifier and client emitter; the client type-checks under --strict (neither header is the caller's to
 * pass) and runs against a real node:http server that dedupes on Repeatability-Request-ID. Both headers go
 * out, and Repeatability-First-Sent is the first attempt's time in IMF-fixdate on the retry too, although
 * the (injected) clock moved on between the attempts.
 */
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { classify } from '../../../src/classify/index.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { createToolRuntime, type ToolBinding } from '../../../packages/runtime/src/tools/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { OUT_ROOT, typeCheck, writeBatch } from './helpers/compile.js';
import { withRuntimeSources } from './helpers/import-client.js';
import { loadApis } from './helpers/spec-plan.js';

type Client = Record<string, (request: unknown, options?: unknown) => Promise<any>>;
let createClient: (options: Record<string, unknown>) => Client;
let source = '';
let server: FaultServer | undefined;
let bindings: ToolBinding[] = [];
const DIR = resolve(import.meta.dirname, '../../fixtures/key-evidence');

// Compiles only if both OASIS headers are left out of the caller's header type (the runtime fills them in).
const USAGE = `import { createOasisClient } from './oasis.gen.js';
const client = createOasisClient({ baseUrl: 'http://127.0.0.1:1' });
export const ok = () => client.createTransfer({ header: { 'X-Tenant': 't' }, body: { amount: 1 } }, { key: 'k'.repeat(24) });
// @ts-expect-error the key header is the runtime's to send
export const id = () => client.createTransfer({ header: { 'X-Tenant': 't', 'Repeatability-Request-ID': 'x' }, body: { amount: 1 } }, { key: 'k'.repeat(24) });
// @ts-expect-error so is First-Sent
export const sent = () => client.createTransfer({ header: { 'X-Tenant': 't', 'Repeatability-First-Sent': 'x' }, body: { amount: 1 } }, { key: 'k'.repeat(24) });
`;

beforeAll(async () => {
  const { apis, errors } = await loadApis(['oasis.yaml'], DIR);
  expect(errors).toEqual([]);
  const plan = classify(apis, resolveConfig());
  bindings = buildToolBindings(plan.apis[0]!, resolveConfig());
  const { files } = emitClient(plan, resolveConfig());
  source = files.find((f) => f.path === 'client/oasis.gen.ts')!.contents;
  const paths = writeBatch(
    'oasis-pair',
    new Map([
      ['oasis.gen.ts', source],
      ['usage.ts', USAGE],
    ]),
  );
  expect(Object.fromEntries(typeCheck(paths))).toEqual({ 'oasis.gen.ts': [], 'usage.ts': [] });
  writeBatch(
    'oasis-pair-run',
    new Map([['oasis.gen.ts', withRuntimeSources(source, join(OUT_ROOT, 'oasis-pair-run'))]]),
  );
  const mod = (await import(join(OUT_ROOT, 'oasis-pair-run', 'oasis.gen.ts'))) as {
    createOasisClient: typeof createClient;
  };
  createClient = mod.createOasisClient;
}, 120_000);

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { timeoutMs: 1000, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 } };
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** A clock that moves 7 s on every reading: a First-Sent computed per attempt would differ. */
function movingClock(start: number): () => number {
  let t = start;
  return () => {
    const now = t;
    t += 7000;
    return now;
  };
}

describe('OASIS Repeatable Requests: Repeatability-Request-ID + Repeatability-First-Sent', () => {
  it('the emitted call names the pair', () => {
    expect(source).toContain(
      'carrier: { in: "header", name: "Repeatability-Request-ID", firstSent: "Repeatability-First-Sent" },',
    );
  });

  it('sends both headers: the key, and the first attempt time in IMF-fixdate', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Repeatability-Request-ID' } });
    const start = Date.UTC(2026, 0, 5, 9, 30, 7);
    const client = createClient({ baseUrl: server.url, now: movingClock(start), ...fast });
    const key = 'transfer-key-000000000001';
    await client.createTransfer!({ header: { 'X-Tenant': 'acme' }, body: { amount: 5 } }, { key });
    expect(server.requests).toHaveLength(1);
    const h = server.requests[0]!.headers;
    expect(h['repeatability-request-id']).toBe(key);
    expect(h['repeatability-first-sent']).toBe('Mon, 05 Jan 2026 09:30:07 GMT');
    expect(h['repeatability-first-sent']).toMatch(IMF_FIXDATE);
    expect(h['x-tenant']).toBe('acme');
  });

  it('commit-then-timeout: the retry carries the same id and the same First-Sent; one effect, a replay', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Repeatability-Request-ID' } });
    const client = createClient({ baseUrl: server.url, now: movingClock(Date.UTC(2026, 5, 1, 23, 59, 59)), ...fast });
    server.inject({ kind: 'stall', ms: 2500 });
    const key = 'transfer-key-000000000002';
    const first = await client.createTransfer!({ header: { 'X-Tenant': 'acme' }, body: { amount: 9 } }, { key });
    expect(server.requests).toHaveLength(2); // the stalled attempt, then the retry
    expect(server.effects).toBe(1);
    expect(first.wasReplay).toBe(true);
    const sentAt = server.requests.map((r) => r.headers['repeatability-first-sent']);
    expect(sentAt).toEqual(['Mon, 01 Jun 2026 23:59:59 GMT', 'Mon, 01 Jun 2026 23:59:59 GMT']);
    expect(server.requests.map((r) => r.headers['repeatability-request-id'])).toEqual([key, key]);
  });

  it('a First-Sent the caller passes (a retry from an earlier process) is kept', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Repeatability-Request-ID' } });
    const client = createClient({ baseUrl: server.url, now: movingClock(Date.UTC(2026, 0, 1)), ...fast });
    const earlier = 'Wed, 31 Dec 2025 23:00:00 GMT';
    await client.createTransfer!(
      { header: { 'X-Tenant': 'acme' }, body: { amount: 1 } },
      { key: 'transfer-key-000000000003', headers: { 'repeatability-first-sent': earlier } },
    );
    expect(server.requests[0]!.headers['repeatability-first-sent']).toBe(earlier);
  });

  it('the tool runtime sends the same pair: its binding carries firstSent, the same engine fills it in', async () => {
    server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Repeatability-Request-ID' } });
    const b = bindings.find((x) => x.operation.startsWith('POST '))!;
    expect(b.carrier).toMatchObject({ name: 'Repeatability-Request-ID', firstSent: 'Repeatability-First-Sent' });
    const rt = createToolRuntime({ bindings, baseUrl: server.url, ...fast });
    const args: Record<string, unknown> = {
      [b.keyProperty!]: 'transfer-key-000000000004',
      [b.body!.property]: { amount: 2 },
    };
    for (const r of b.routes) if (r.in === 'header' && r.name === 'X-Tenant') args[r.property] = 'acme';
    expect(await rt.call(b.clientMethod, args)).toMatchObject({ ok: true });
    const h = server.requests[0]!.headers;
    expect(h['repeatability-request-id']).toBe('transfer-key-000000000004');
    expect(h['repeatability-first-sent']).toMatch(IMF_FIXDATE);
  });
});
