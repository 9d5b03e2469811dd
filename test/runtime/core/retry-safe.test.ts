/**
 * One retry-safe set (core/mechanism.ts): the state machine's choice to retry an expired lease and the tool
 * runtime's "retry with the SAME key" after an unknown outcome read the same set.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isRetrySafe, RETRY_SAFE_MECHANISMS } from '../../../packages/runtime/src/core/mechanism.js';
import { RETRY_SAFE_MECHANISMS as FROM_SUPPORT } from '../../../packages/runtime/src/support.js';
import { createToolRuntime, type ToolBinding } from '../../../packages/runtime/src/tools/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { KEY, shopBindings } from '../tools/helpers/shop-spec.js';
import { sqliteStore } from '../tools/helpers/sqlite.js';

describe('the retry-safe set', () => {
  it('holds native-key, content-address and method-idempotent; nothing else, no alias', () => {
    expect([...RETRY_SAFE_MECHANISMS].sort()).toEqual(['content-address', 'method-idempotent', 'native-key']);
    expect(FROM_SUPPORT).toBe(RETRY_SAFE_MECHANISMS);
    const all = ['none', 'native-key', 'dedup-table', 'content-address', 'unique-insert', 'saga'];
    expect(all.filter(isRetrySafe)).toEqual(['native-key', 'content-address']);
    expect([isRetrySafe('method-idempotent'), isRetrySafe('fail-closed'), isRetrySafe('OP-1')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('the tool runtime reads it', () => {
  let bindings: ToolBinding[];
  let api: FaultServer;
  let db: ReturnType<typeof sqliteStore>;
  beforeAll(async () => {
    bindings = await shopBindings('retry-safe');
  });
  beforeEach(async () => {
    api = await startFaultServer();
    db = sqliteStore('idemgen-retry-safe');
  });
  afterEach(async () => {
    await api.close();
    await db.cleanup();
  });

  const unknownAfter502 = async (mechanism: ToolBinding['mechanism']) => {
    const b = bindings.find((x) => x.names.mcp === 'createNote')!;
    const rt = createToolRuntime({
      bindings: [{ ...b, mechanism }],
      baseUrl: api.url,
      store: db.store,
      auth: { token: 'sk_test_1', account: 'acct_9' },
      retry: { attempts: 1 },
    });
    api.inject({ kind: 'status', status: 502 });
    const out = await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY });
    expect(out).toMatchObject({ ok: false, error: { code: 'idempotency_outcome_unknown', executed: 'unknown' } });
    return out.ok ? '' : out.error.message;
  };

  it('a content-address write: the same key resolves an unknown outcome', async () => {
    expect(await unknownAfter502('content-address')).toMatch(/Retry with the SAME key/);
  });

  it('a method-idempotent write: the same key resolves an unknown outcome', async () => {
    expect(await unknownAfter502('method-idempotent')).toMatch(/Retry with the SAME key/);
  });

  it('a dedup-table write: fail closed, not run again', async () => {
    expect(await unknownAfter502('dedup-table')).toMatch(/not run again automatically \(fail closed\)/);
  });
});
