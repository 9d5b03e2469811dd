/**
 * The way out of fail-closed: a worker is SIGKILLed between the side effect and the completion, the
 * row stays pending with an unknown outcome, and an operator resolves it with `idemgen reconcile`.
 * `--as failed` → the next call runs exactly once; `--as completed --result` → the next call replays
 * that result; both decisions are recorded in the row; the default summary shows no argument values.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHttpCaller, createIdempotency, type FullDedupStore } from '../../packages/runtime/src/index.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { makeStore, type TestStore } from '../runtime/store/stores.js';
import { openWorkerStore } from '../runtime/fixtures/worker-store.js';

const worker = fileURLToPath(new URL('../runtime/fixtures/crash-worker.ts', import.meta.url));
const ARGS = { amount: 42, card: 'tok_secret_4242', to: 'alice@example.com' };
const LEASE_MS = 500;

describe.each(['sqlite', 'mysql', 'redis'] as const)('reconcile --resolve after a SIGKILL (%s)', (kind) => {
  let t: TestStore;
  let server: FaultServer;
  let url: string;
  let cwd: string;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'resolve');
    server = await startFaultServer();
    const l = t.location;
    url =
      kind === 'sqlite'
        ? `sqlite:${l.filename}?table=${l.table}`
        : kind === 'mysql'
          ? `${l.url}?table=${l.table}&database=${l.database}`
          : `${l.url}?table=${l.table}&prefix=${l.prefix}`;
    // The CLI runs where its files go: never the repository (a result file there would dirty the tree).
    cwd = kind === 'sqlite' ? dirname(l.filename as string) : mkdtempSync(join(tmpdir(), 'idemgen-reconcile-'));
  });
  afterAll(async () => {
    await server.close();
    await t.cleanup();
  });

  async function crash(key: string): Promise<void> {
    const config = {
      store: { kind, ...t.location },
      baseUrl: server.url,
      key,
      mechanism: 'fail-closed',
      leaseMs: LEASE_MS,
      args: ARGS,
    };
    const child = fork(worker, [JSON.stringify(config)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`worker exited (${code}) before the effect`)));
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    await new Promise((r) => setTimeout(r, LEASE_MS + 100)); // the dead worker's lease runs out
  }

  const nextCall = async (store: FullDedupStore, key: string) => {
    const caller = createHttpCaller({ baseUrl: server.url });
    return createIdempotency({ store }).run(
      { operation: 'POST /payouts', key, args: ARGS, mechanism: 'fail-closed' },
      async () =>
        (
          await caller.send({
            method: 'POST',
            path: '/payouts',
            body: ARGS,
            bodyType: 'json',
            mechanism: 'fail-closed',
          })
        ).body,
    );
  };

  it('lists the stuck row with its summary (no values); --as failed frees the key and the next call runs once', async () => {
    const key = `resolve-failed-${kind}-0123456789`;
    await crash(key);
    expect(server.effects).toBe(1);
    const list = await runCli(['reconcile', '--store', url], cwd);
    expect(list.code).toBe(1);
    expect(list.stdout).toContain(`key=${key}`);
    expect(list.stdout).toContain('"card":"string(15)"');
    expect(list.stdout).toMatch(/attempts=1/);
    const json = JSON.parse((await runCli(['reconcile', '--store', url, '--json'], cwd)).stdout) as {
      key: string;
      summary: unknown;
    }[];
    expect(json.find((r) => r.key === key)?.summary).toEqual({
      amount: 'number',
      card: 'string(15)',
      to: 'string(17)',
    });
    for (const secret of ['tok_secret', 'alice', 'example.com']) expect(JSON.stringify(json)).not.toContain(secret);

    const store = openWorkerStore({ kind, ...t.location });
    await expect(nextCall(store, key)).rejects.toThrow(/outcome unknown/); // fail closed until someone decides
    const done = await runCli(
      [
        'reconcile',
        '--store',
        url,
        '--resolve',
        key,
        '--as',
        'failed',
        '--reason',
        'ledger shows no payout',
        '--by',
        'ops-alice',
      ],
      cwd,
    );
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/the next retry runs/);
    const first = await nextCall(store, key);
    const second = await nextCall(store, key);
    expect(first.wasReplay).toBe(false);
    expect(second.wasReplay).toBe(true);
    expect(server.effects).toBe(2); // the crashed one + exactly one after the resolution
    const row = await store.get({ scope: '', key });
    expect(JSON.parse(row?.resolution ?? '{}')).toMatchObject({
      as: 'failed',
      by: 'ops-alice',
      reason: 'ledger shows no payout',
      previousAttempts: 1,
    });
    expect(Date.parse(JSON.parse(row?.resolution ?? '{}').at)).not.toBeNaN();
    await store.close();
  }, 60_000);

  it('--as completed --result @file: the next call replays the given result and calls nothing', async () => {
    const key = `resolve-completed-${kind}-0123456789`;
    const before = server.effects;
    await crash(key);
    const file = `${cwd}/result-${kind}.json`;
    writeFileSync(file, '{"id":"po_from_ledger","status":"paid"}');
    const bad = await runCli(
      ['reconcile', '--store', url, '--resolve', key, '--as', 'completed', '--result', '{oops', '--reason', 'x'],
      cwd,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid_result_json/);
    const done = await runCli(
      [
        'reconcile',
        '--store',
        url,
        '--resolve',
        key,
        '--as',
        'completed',
        '--result',
        `@${file}`,
        '--reason',
        'found it in the ledger',
        '--json',
      ],
      cwd,
    );
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      resolved: true,
      record: { as: 'completed', reason: 'found it in the ledger' },
    });
    const store = openWorkerStore({ kind, ...t.location });
    const out = await nextCall(store, key);
    expect(out).toMatchObject({ wasReplay: true, result: { id: 'po_from_ledger', status: 'paid' } });
    expect(server.effects).toBe(before + 1); // only the crashed attempt's
    const again = await runCli(['reconcile', '--store', url, '--resolve', key, '--as', 'failed', '--reason', 'x'], cwd);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not pending any more/);
    await store.close();
  }, 60_000);
});

describe('reconcile --saga-table', () => {
  it('shows stale saga rows with their external id and compensation state', async () => {
    const t = await makeStore('sqlite', inject('pgUrl'), 'sagacli');
    try {
      const saga = t.store.saga(t.location.sagaTable);
      const base = {
        scope: '',
        operation: 'POST /charges',
        argsHash: 'a'.repeat(64),
        compensationOperation: 'POST /refunds',
        now: 1_000,
        leaseMs: 10,
        ttlMs: 86_400_000,
      };
      await saga.claim({ ...base, key: 'saga-unknown-000001', leaseToken: 's1' });
      await saga.claim({ ...base, key: 'saga-owed-00000002', leaseToken: 's2' });
      await saga.transition({
        scope: '',
        key: 'saga-owed-00000002',
        leaseToken: 's2',
        now: 1_001,
        from: ['pending'],
        to: 'compensating',
        externalId: 'ch_42',
      });
      const url = `sqlite:${t.location.filename}?table=${t.location.table}`;
      const cwd = dirname(t.location.filename as string);
      const text = await runCli(['reconcile', '--store', url, '--saga-table', t.location.sagaTable], cwd);
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(
        /saga-owed-00000002 {2}status=compensating {2}external id=ch_42 {2}compensation owed \(POST \/refunds\)/,
      );
      expect(text.stdout).toMatch(
        /saga-unknown-000001 {2}status=pending {2}external id=— {2}outcome unknown, not compensated/,
      );
      const json = JSON.parse(
        (await runCli(['reconcile', '--store', url, '--saga-table', t.location.sagaTable, '--json'], cwd)).stdout,
      );
      expect(json.rows).toEqual([]);
      const states = json.sagas.map((s: { key: string; externalId: string | null; compensationState: string }) => [
        s.key,
        s.externalId,
        s.compensationState,
      ]);
      expect(states.sort()).toEqual([
        ['saga-owed-00000002', 'ch_42', 'owed'],
        ['saga-unknown-000001', null, 'not-started'],
      ]);
    } finally {
      await t.cleanup();
    }
  });
});
