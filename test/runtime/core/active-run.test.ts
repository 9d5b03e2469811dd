/**
 * A bug that burned keys: a `withIdempotency` MCP handler that passes the tool's `idempotency_key` to a generated
 * client as its `key` made both claim the same (scope, key) row — the first call failed with a conflict and
 * burned the key. Now the client's run joins the handler's: one row, one effect, a replay on repeat, and a
 * 4xx releases the key with the API's message.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { createMemoryStore, type DedupStore } from '../../../packages/runtime/src/index.js';
import { withIdempotency } from '../../../packages/runtime/src/mcp/index.js';
import { importClient, type ClientFactory } from '../../emit/client/helpers/import-client.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { KEY, shopPlan } from '../tools/helpers/shop-spec.js';

let factory: ClientFactory;
let api: FaultServer;
let store: DedupStore;

beforeAll(async () => {
  const { files } = emitClient({ apis: [await shopPlan('active-run')], diagnostics: [] }, resolveConfig());
  factory = await importClient('active-run', files, 'client/shop.gen.ts', 'createShopClient');
});
beforeEach(async () => {
  api = await startFaultServer();
  store = createMemoryStore();
});
afterEach(() => api.close());

function handler() {
  const client = factory({ baseUrl: api.url, store });
  return withIdempotency(
    async (args: { text: string; idempotency_key: string }) => {
      const run = await client.createNote!({ body: { text: args.text } }, { key: args.idempotency_key });
      return { content: [{ type: 'text', text: JSON.stringify(run.result) }] };
    },
    { store, operation: 'tool:create_note', windowMs: 0 },
  );
}

describe('withIdempotency around a generated client, same key', () => {
  it('the first call runs (no self-conflict), the repeat is a replay: one effect, one row', async () => {
    const tool = handler();
    const first = await tool({ text: 'x', idempotency_key: KEY }, {});
    const second = await tool({ text: 'x', idempotency_key: KEY }, {});
    expect(first.isError).toBeUndefined();
    expect(second._meta?.['idemgen/replay']).toMatchObject({ wasReplay: true });
    expect(api.effects).toBe(1);
  });

  it('a 4xx releases the key and reaches the model with the API message; the corrected retry runs', async () => {
    const tool = handler();
    api.inject({ kind: 'reject', status: 400, body: { code: 21211, message: 'not a valid phone number' } });
    const bad = await tool({ text: 'x', idempotency_key: KEY }, {});
    expect(bad.isError).toBe(true);
    expect(bad._meta?.['idemgen/error']).toMatchObject({ code: 'api_error', executed: 'no', retry_same_key: true });
    expect(JSON.stringify(bad.content)).toContain('21211: not a valid phone number');
    expect(await store.get({ scope: '', key: KEY })).toBeUndefined();
    const good = await tool({ text: 'x', idempotency_key: KEY }, {});
    expect(good.isError).toBeUndefined();
    expect(api.effects).toBe(1);
  });

  it('a different key inside still claims its own row', async () => {
    const client = factory({ baseUrl: api.url, store });
    const tool = withIdempotency(
      async (args: { idempotency_key: string }) => {
        await client.createNote!({ body: { text: 'y' } }, { key: `${args.idempotency_key}-inner` });
        return { content: [] };
      },
      { store, operation: 'tool:other', windowMs: 0 },
    );
    await tool({ idempotency_key: KEY }, {});
    expect(await store.get({ scope: '', key: `${KEY}-inner` })).toMatchObject({
      status: 'completed',
      operation: 'POST /notes',
    });
    expect(await store.get({ scope: '', key: KEY })).toMatchObject({ status: 'completed', operation: 'tool:other' });
  });
});
