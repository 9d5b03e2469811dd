/**
 * Real OS processes: four workers share one PostgreSQL table (or Redis keyspace), and a worker SIGKILLed between the
 * side effect and the completion must not cause a second effect after restart (SOP Step 6, OP-8).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createHttpCaller,
  createIdempotency,
  IdempotencyInFlightError,
  IdempotencyOutcomeUnknownError,
  reconcileReport,
} from '../../../packages/runtime/src/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { makeStore, type TestStore } from '../store/stores.js';
import type { WorkerStoreConfig } from '../fixtures/worker-store.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

function spawnWorker(script: string, config: unknown): ChildProcess {
  return fork(fixture(script), [JSON.stringify(config)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before reporting`)));
  });
}

function workerStore(t: TestStore, kind: WorkerStoreConfig['kind']): WorkerStoreConfig {
  return { kind, ...t.location };
}

interface HerdReport {
  fresh: number;
  replays: number;
  inFlight: number;
  other: string[];
  ids: unknown[];
}

describe.each(['postgres', 'mysql', 'redis'] as const)(
  '200 identical calls spread over 4 OS processes on one %s table',
  (kind) => {
    let t: TestStore;
    let server: FaultServer;
    beforeAll(async () => {
      t = await makeStore(kind, inject('pgUrl'), 'herd');
      server = await startFaultServer();
    });
    afterAll(async () => {
      await server.close();
      await t.cleanup();
    });

    it('exactly one side effect; every other call is a replay of it or an in-flight error', async () => {
      const key = 'herd-key-0123456789abcdef';
      const workers = Array.from({ length: 4 }, () =>
        spawnWorker('herd-worker.ts', { store: workerStore(t, kind), baseUrl: server.url, key, calls: 50 }),
      );
      await Promise.all(workers.map((w) => nextMessage<string>(w)));
      const reports = workers.map((w) => nextMessage<HerdReport>(w));
      for (const w of workers) w.send('go');
      const all = await Promise.all(reports);
      expect(server.effects).toBe(1);
      expect(all.flatMap((r) => r.other)).toEqual([]);
      expect(all.reduce((n, r) => n + r.fresh, 0)).toBe(1);
      expect(all.reduce((n, r) => n + r.fresh + r.replays + r.inFlight, 0)).toBe(200);
      expect(new Set(all.flatMap((r) => r.ids))).toEqual(new Set(['obj_1']));
    }, 120_000);
  },
);

describe.each(['sqlite', 'postgres', 'mysql', 'redis'] as const)(
  'a worker SIGKILLed after the side effect, before completion (%s)',
  (kind) => {
    let t: TestStore;
    afterAll(() => t?.cleanup());
    beforeAll(async () => {
      t = await makeStore(kind, inject('pgUrl'), 'crash');
    });

    async function crashAfterEffect(
      server: FaultServer,
      key: string,
      mechanism: 'fail-closed' | 'native-key',
    ): Promise<unknown> {
      const child = spawnWorker('crash-worker.ts', {
        store: workerStore(t, kind),
        baseUrl: server.url,
        key,
        mechanism,
        leaseMs: 5_000,
      });
      const { effect } = await nextMessage<{ effect: unknown }>(child);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      return effect;
    }

    it('fail-closed: the retry after restart does not repeat the effect; reconcile lists the row', async () => {
      const server = await startFaultServer();
      try {
        const key = `crash-fc-${kind}-0123456789`;
        await crashAfterEffect(server, key, 'fail-closed');
        const restarted = await makeRestartedStore();
        const req = { operation: 'POST /payouts', key, args: { amount: 42 }, mechanism: 'fail-closed' as const };
        const call = () =>
          createHttpCaller({ baseUrl: server.url }).send({
            method: 'POST',
            path: '/payouts',
            body: { amount: 42 },
            bodyType: 'json',
            mechanism: 'fail-closed',
          });
        await expect(createIdempotency({ store: restarted, waitMs: 0 }).run(req, call)).rejects.toBeInstanceOf(
          IdempotencyInFlightError,
        );
        const later = createIdempotency({ store: restarted, now: () => Date.now() + 10_000 });
        await expect(later.run(req, call)).rejects.toBeInstanceOf(IdempotencyOutcomeUnknownError);
        expect(server.effects).toBe(1);
        expect((await reconcileReport(restarted, { now: Date.now() + 10_000 })).map((r) => r.key)).toContain(key);
        await restarted.close();
      } finally {
        await server.close();
      }
    }, 60_000);

    it('native key: the retry after restart repeats the call with the SAME key and the server dedupes it', async () => {
      const server = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
      try {
        const key = `crash-op1-${kind}-0123456789`;
        const original = await crashAfterEffect(server, key, 'native-key');
        const restarted = await makeRestartedStore();
        const later = createIdempotency({ store: restarted, now: () => Date.now() + 10_000 });
        const caller = createHttpCaller({ baseUrl: server.url });
        const out = await later.run(
          { operation: 'POST /payouts', key, args: { amount: 42 }, mechanism: 'native-key' },
          async (ctx) =>
            (
              await caller.send({
                method: 'POST',
                path: '/payouts',
                body: { amount: 42 },
                bodyType: 'json',
                key: ctx.key,
                carrier: { in: 'header', name: 'Idempotency-Key' },
                mechanism: 'native-key',
              })
            ).body,
        );
        expect(out.result).toEqual(original);
        expect(server.effects).toBe(1);
        expect(server.requests.map((r) => r.key)).toEqual([key, key]);
        await restarted.close();
      } finally {
        await server.close();
      }
    }, 60_000);

    /** A fresh connection to the same file/table, as a restarted process would open. */
    async function makeRestartedStore() {
      const { openWorkerStore } = await import('../fixtures/worker-store.js');
      return openWorkerStore(workerStore(t, kind));
    }
  },
);
