import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reconcileReport } from '../../../packages/runtime/src/core/reconcile.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { runAgent, type AgentRun } from './support/agent-process.js';
import type { FaultServer } from '../../helpers/fault-server.js';
import { startMailProvider } from './support/mail-provider.js';
import { freshDir, migratedSqliteFile } from './support/sqlite-file.js';

/**
 * SOP Case 1 end to end across process restarts: classify → propose → interrupt for approval → send,
 * each step in a separate Node process sharing a SqliteSaver checkpoint file and the SQLite dedup
 * table; the process is SIGKILLed at three points around the send and restarted.
 */
let server: FaultServer;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startMailProvider();
  const dir = freshDir('case1');
  migratedSqliteFile(dir);
  env = { CASE1_DIR: dir, CASE1_PROVIDER: server.url, CASE1_THREAD: randomUUID() };
});
afterEach(async () => {
  await server.close();
});

const last = (run: AgentRun): Record<string, unknown> => run.events[run.events.length - 1] ?? {};

/** The killed attempt's 200 ms lease must have run out, so the restart sees a stale row, not a live one. */
async function leaseExpired(): Promise<void> {
  const store = createSqliteStore({ filename: join(env.CASE1_DIR!, 'dedup.sqlite') });
  try {
    const [row] = await store.listStale(Number.MAX_SAFE_INTEGER);
    expect(row).toMatchObject({ status: 'pending', operation: 'tool:send_email' });
    const wait = row!.leaseExpiresAt - Date.now() + 1;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  } finally {
    await store.close();
  }
}

async function startAndAwaitApproval(): Promise<void> {
  const first = await runAgent({ env: { ...env, CASE1_MODE: 'start' } });
  expect(first.code, first.stderr).toBe(0);
  const done = last(first) as { event: string; state: { __interrupt__?: { value: { draft: string } }[] } };
  expect(done.event).toBe('done');
  expect(done.state.__interrupt__?.[0]?.value.draft).toMatch(/^\[billing\] Hello alice@example.com/);
  expect(server.received).toHaveLength(0);
}

describe('SOP Case 1 with a fail-closed send, restarted between approval and send', () => {
  it('killed after approval, before the send: the restarted process sends exactly one message', async () => {
    await startAndAwaitApproval();
    const approve = await runAgent({
      env: { ...env, CASE1_MODE: 'approve', CASE1_PAUSE: 'before-send' },
      killOnEvent: 'before-send',
    });
    expect(approve.signal).toBe('SIGKILL');
    expect(server.received).toHaveLength(0);

    const restarted = await runAgent({ env: { ...env, CASE1_MODE: 'continue' } });
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(last(restarted)).toMatchObject({
      event: 'done',
      state: { decision: 'approve', sent: { wasReplay: false } },
    });
    expect(server.received).toEqual([
      { to: 'alice@example.com', body: expect.stringMatching(/charged twice/) as unknown },
    ]);
  }, 120_000);

  it.each(['sync', 'async'])(
    'killed after the send completed, before the node checkpointed (durability %s): the restart replays, one message',
    async (durability) => {
      env.CASE1_DURABILITY = durability;
      await startAndAwaitApproval();
      const approve = await runAgent({
        env: { ...env, CASE1_MODE: 'approve', CASE1_PAUSE: 'after-send' },
        killOnEvent: 'after-send',
      });
      expect(approve.signal).toBe('SIGKILL');
      expect(server.received).toHaveLength(1);

      const restarted = await runAgent({ env: { ...env, CASE1_MODE: 'continue' } });
      expect(restarted.code, restarted.stderr).toBe(0);
      expect(last(restarted)).toMatchObject({
        event: 'done',
        state: { sent: { messageId: 'msg-1', wasReplay: true } },
      });
      expect(server.received).toHaveLength(1);
    },
    120_000,
  );

  it('killed while the provider holds the delivered request: the restart fails closed, one message, listed for reconcile', async () => {
    await startAndAwaitApproval();
    server.always({ kind: 'stall' }); // the provider commits the send and never answers (SOP §6 "don't trust a 504")
    const approve = await runAgent({
      env: { ...env, CASE1_MODE: 'approve', CASE1_LEASE_MS: '200' },
      killWhen: server.arrived(1),
    });
    expect(approve.signal).toBe('SIGKILL');
    server.always(undefined);
    await leaseExpired();

    const restarted = await runAgent({ env: { ...env, CASE1_MODE: 'continue' } });
    expect(last(restarted)).toMatchObject({ event: 'error', name: 'IdempotencyOutcomeUnknownError' });
    expect(restarted.code).toBe(3);
    expect(server.received).toHaveLength(1);

    const store = createSqliteStore({ filename: join(env.CASE1_DIR!, 'dedup.sqlite') });
    try {
      const stale = await reconcileReport(store);
      expect(stale.map((r) => [r.operation, r.status, r.mechanism])).toEqual([
        ['tool:send_email', 'pending', 'fail-closed'],
      ]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
