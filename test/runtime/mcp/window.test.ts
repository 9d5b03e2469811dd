/** The in-process window and the middleware used directly (no transport): LRU bound, expiry, scoping. */
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { createDedupWindow, REPLAY_META, withIdempotency } from '../../../packages/runtime/src/mcp/index.js';
import { migratedSqliteFile } from './sqlite-db.js';

describe('createDedupWindow', () => {
  it('evicts the least recently used entry past its size', () => {
    const w = createDedupWindow<string>(60_000, 2);
    w.set('a', { argsHash: 'h', result: 'A', calledAt: 0, storedAt: 0 });
    w.set('b', { argsHash: 'h', result: 'B', calledAt: 0, storedAt: 0 });
    expect(w.get('a', 1)?.result).toBe('A'); // a is now most recent
    w.set('c', { argsHash: 'h', result: 'C', calledAt: 0, storedAt: 0 });
    expect(w.get('b', 1)).toBeUndefined();
    expect(w.get('a', 1)?.result).toBe('A');
    expect(w.size).toBe(2);
  });

  it('forgets entries older than the window', () => {
    const w = createDedupWindow<string>(1000, 10);
    w.set('a', { argsHash: 'h', result: 'A', calledAt: 0, storedAt: 0 });
    expect(w.get('a', 999)?.result).toBe('A');
    expect(w.get('a', 1001)).toBeUndefined();
    expect(w.size).toBe(0);
  });
});

describe('withIdempotency without a transport', () => {
  it('replays from the store after the in-process window expired, and keeps tenants apart', async () => {
    let clock = 1_000_000;
    let effects = 0;
    const store = createSqliteStore({ filename: migratedSqliteFile('idemgen-mcp-window').file });
    const tool = withIdempotency(
      async (args: Record<string, unknown>, _extra: { tenant: string }) => {
        effects += 1;
        return { content: [{ type: 'text', text: `done ${String(args.x)} #${effects}` }] };
      },
      { store, operation: 'tool:do', windowMs: 1000, scope: (extra) => extra.tenant, now: () => clock },
    );
    const args = { x: 1, idempotency_key: 'window-test-key-0001' };
    const first = await tool(args, { tenant: 'acme' });
    clock += 5000; // past the in-process window: the answer must come from the store
    const second = await tool(args, { tenant: 'acme' });
    expect(second.content).toEqual(first.content);
    expect(second._meta?.[REPLAY_META]).toEqual({
      wasReplay: true,
      originalCalledAt: new Date(1_000_000).toISOString(),
      replayEvidence: 'store',
    });
    const other = await tool(args, { tenant: 'globex' });
    expect(other._meta?.[REPLAY_META]).toBeUndefined();
    expect(effects).toBe(2);
  });
});
