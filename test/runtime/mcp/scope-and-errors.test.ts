/**
 * The middleware used directly with SQLite (no transport): the default dedup scope is the
 * authenticated *user*, never the OAuth client (M5); replays that cannot return a result say so (S3);
 * `notExecuted` releases the key (S8); the in-process window never outlives the store TTL (S8).
 */
import { describe, expect, it } from 'vitest';
import { notExecuted } from '../../../packages/runtime/src/index.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { ERROR_META, REPLAY_META, withIdempotency } from '../../../packages/runtime/src/mcp/index.js';
import { migratedSqliteFile } from './sqlite-db.js';

interface Extra {
  authInfo?: { token: string; clientId: string; scopes: string[]; extra?: Record<string, unknown> };
}

const auth = (clientId: string, sub?: string): Extra => ({
  authInfo: { token: 't', clientId, scopes: [], ...(sub === undefined ? {} : { extra: { sub } }) },
});

function counted(opts: Partial<Parameters<typeof withIdempotency>[1]> = {}) {
  const store = createSqliteStore({ filename: migratedSqliteFile('idemgen-mcp-scope').file });
  const calls: string[] = [];
  const tool = withIdempotency(
    async (args: Record<string, unknown>, _extra: Extra) => {
      calls.push(String(args.text));
      return { content: [{ type: 'text', text: `sent ${String(args.text)} #${calls.length}` }] };
    },
    { store, operation: 'tool:send', ...opts },
  );
  return { tool, calls, store };
}

const code = (r: { _meta?: Record<string, unknown> }) => (r._meta?.[ERROR_META] as { code?: string } | undefined)?.code;

describe('withIdempotency scope and error mapping', () => {
  it("two users of one OAuth client never replay each other's results (scope = subject)", async () => {
    const { tool, calls } = counted();
    const args = { text: 'hi', idempotency_key: 'shared-key-0000000001' };
    const alice = await tool(args, auth('chat-app', 'alice'));
    const bob = await tool(args, auth('chat-app', 'bob'));
    expect(bob._meta?.[REPLAY_META]).toBeUndefined();
    expect(calls).toEqual(['hi', 'hi']);
    expect((await tool(args, auth('chat-app', 'alice'))).content).toEqual(alice.content);
    expect(calls).toHaveLength(2);
  });

  it('authenticated without a subject and no scope resolver → isError, nothing executed; stdio (no auth) works', async () => {
    const { tool, calls } = counted();
    const noSub = await tool({ text: 'x', idempotency_key: 'nosub-key-00000000001' }, auth('chat-app'));
    expect(noSub.isError).toBe(true);
    expect(code(noSub)).toBe('idempotency_scope_unknown');
    expect(calls).toEqual([]);
    expect((await tool({ text: 'y', idempotency_key: 'stdio-key-00000000001' }, {})).isError).toBeUndefined();
    const custom = counted({ scope: (extra: unknown) => `client:${(extra as Extra).authInfo?.clientId}` });
    expect(
      (await custom.tool({ text: 'z', idempotency_key: 'custom-key-0000000001' }, auth('svc'))).isError,
    ).toBeUndefined();
  });

  it('a replay of an oversized result says it happened and cannot be replayed', async () => {
    const { tool, calls } = counted({ maxResultBytes: 16, windowMs: 0 }); // the store answers the replay
    const args = { text: 'a long message body', idempotency_key: 'big-key-0000000000001' };
    expect((await tool(args, {})).isError).toBeUndefined();
    const replay = await tool(args, {});
    expect(code(replay)).toBe('idempotency_result_unavailable');
    expect(JSON.stringify(replay.content)).toMatch(/already happened/);
    expect(calls).toHaveLength(1);
  });

  it('notExecuted(err) from the handler releases the key: the corrected retry with the same key runs', async () => {
    const store = createSqliteStore({ filename: migratedSqliteFile('idemgen-mcp-notexec').file });
    let runs = 0;
    const tool = withIdempotency(
      async (args: Record<string, unknown>) => {
        if (args.to === '') throw notExecuted(new Error('recipient is empty'));
        runs++;
        return { content: [{ type: 'text', text: `to ${String(args.to)}` }] };
      },
      { store, operation: 'tool:mail' },
    );
    const bad = await tool({ to: '', idempotency_key: 'mail-key-000000000001' }, {});
    expect(bad.isError).toBe(true);
    const good = await tool({ to: 'a@x', idempotency_key: 'mail-key-000000000001' }, {});
    expect(good).toMatchObject({ content: [{ text: 'to a@x' }] });
    expect(runs).toBe(1);
  });

  it('the in-process window is clamped to the TTL: an expired key runs again', async () => {
    let clock = 5_000_000;
    // A TTL must outlast the lease (createIdempotency refuses ttl ≤ lease), so the lease is 1 s here.
    const { tool, calls } = counted({ ttlSeconds: 2, leaseMs: 1_000, now: () => clock });
    const args = { text: 'daily', idempotency_key: 'ttl-key-0000000000001' };
    await tool(args, {});
    clock += 1_000;
    expect((await tool(args, {}))._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
    clock += 2_000; // past the 2 s TTL, still inside the default 5-minute window
    expect((await tool(args, {}))._meta?.[REPLAY_META]).toBeUndefined();
    expect(calls).toHaveLength(2);
  });
});
