/**
 * A store that is down fails fast and typed, never hangs and never lets a handler run
 * without a claim. Real servers of our own (test/helpers/killable-servers.ts), killed by pid in the middle
 * of a run: a call whose completion could not be written is an unknown outcome (the row stays pending for
 * reconcile, as the restarted server shows), a call made while the server is down is
 * `IdempotencyStoreUnavailableError` (`executed: "no"`), and after the restart the same store object works.
 */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderStoreMigration } from '../../../src/emit/sql/index.js';
import {
  createIdempotency,
  IdempotencyOutcomeUnknownError,
  IdempotencyStoreUnavailableError,
  openStore,
  reconcileReport,
  runSaga,
  type FullDedupStore,
  type Idempotency,
} from '../../../packages/runtime/src/index.js';
import { createMysqlStore } from '../../../packages/runtime/src/store/mysql.js';
import { createPostgresStore } from '../../../packages/runtime/src/store/postgres.js';
import { createRedisStore } from '../../../packages/runtime/src/store/redis/store.js';
import { toToolError } from '../../../packages/runtime/src/tools/outcome.js';
import { runCli } from '../../helpers/cli.js';
import {
  freePort,
  killableMariadb,
  killablePostgres,
  killableRedis,
  silentServer,
  type KillableServer,
} from '../../helpers/killable-servers.js';
import { migratePostgres, sqlConfigFor } from './stores.js';

const LIMIT = { connectTimeoutMs: 1_500, commandTimeoutMs: 1_500 };
/** What "within the timeout" means here: a connect or a command timeout, plus bounded reconnects and slack. */
const WITHIN_MS = 8_000;

type Kind = 'postgres' | 'mysql' | 'redis';
const KINDS: Kind[] = ['postgres', 'mysql', 'redis'];

/** Settles within `ms` or fails the test saying it hung (never waits on the promise past that). */
async function settled<T>(p: Promise<T>, ms = WITHIN_MS): Promise<{ error?: unknown; value?: T; elapsed: number }> {
  const start = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((r) => {
    timer = setTimeout(() => r('hang'), ms);
  });
  try {
    const out = await Promise.race([
      p.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      hang,
    ]);
    if (out === 'hang') throw new Error(`hung: not settled within ${ms} ms`);
    return { ...out, elapsed: Date.now() - start };
  } finally {
    clearTimeout(timer);
  }
}

async function storeOn(kind: Kind, server: KillableServer): Promise<FullDedupStore> {
  const name = `down_${process.pid}`;
  const sql = sqlConfigFor(name);
  if (kind === 'postgres') {
    await migratePostgres(server.url, 'down', name);
    return createPostgresStore({ connectionString: server.url, schema: 'down', table: sql.dedupTable, ...LIMIT });
  }
  if (kind === 'mysql') {
    const admin = await mysql.createConnection({ uri: server.url, multipleStatements: true });
    await admin.query('CREATE DATABASE down');
    await admin.query(renderStoreMigration('mysql', sqlConfigFor(name, 'down'), { saga: true }).up);
    await admin.end();
    return createMysqlStore({ uri: server.url, database: 'down', table: sql.dedupTable, ...LIMIT });
  }
  return createRedisStore({ url: server.url, table: sql.dedupTable, ...LIMIT });
}

const start: Record<Kind, () => Promise<KillableServer>> = {
  postgres: killablePostgres,
  mysql: killableMariadb,
  redis: killableRedis,
};

describe.each(KINDS)('%s killed by pid in the middle of a run', (kind) => {
  let server: KillableServer;
  let store: FullDedupStore;
  let idem: Idempotency;
  /** Side effects by key: a duplicate would show as a count of 2. */
  const effects = new Map<string, number>();
  const call = (key: string, during?: () => Promise<void>) =>
    idem.run({ operation: 'POST /v1/charges', key, args: { key }, mechanism: 'fail-closed' }, async () => {
      effects.set(key, (effects.get(key) ?? 0) + 1);
      if (during) await during();
      return { charged: key };
    });

  beforeAll(async () => {
    server = await start[kind]();
    store = await storeOn(kind, server);
    idem = createIdempotency({ store, telemetry: false, leaseMs: 1_000, heartbeatMs: 0, waitMs: 0 });
  }, 120_000);
  afterAll(async () => {
    await store?.close().catch(() => undefined);
    server?.cleanup();
  });

  it('typed errors within the timeout, 0 duplicate effects, 0 hangs; the pending row survives for reconcile', async () => {
    const keys = ['down-key-0000001', 'down-key-0000002', 'down-key-0000003'];
    for (const k of keys) expect((await call(k)).wasReplay).toBe(false);

    // The store dies while the handler runs: the effect happened, the completion cannot be written.
    const dying = await settled(call('down-key-dying01', () => server.kill()));
    expect(dying.error).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect((dying.error as IdempotencyOutcomeUnknownError).result).toEqual({ charged: 'down-key-dying01' });
    expect((dying.error as Error).message).toMatch(/happened, but its result could not be recorded/);

    // While it is down: typed, fast, nothing executed — a new key, a done key and the dying key alike.
    for (const k of ['down-key-new00001', keys[0] as string, 'down-key-dying01']) {
      const down = await settled(call(k));
      expect(down.error).toBeInstanceOf(IdempotencyStoreUnavailableError);
      const e = down.error as IdempotencyStoreUnavailableError;
      expect([e.code, e.key, e.operation]).toEqual(['idempotency_store_unavailable', k, 'POST /v1/charges']);
      expect(e.message).toMatch(/unreachable \(\w+.*: .+\); nothing was executed/);
      expect(down.elapsed).toBeLessThan(WITHIN_MS);
      expect(toToolError(e, 'write', false)).toMatchObject({
        code: 'store_unavailable',
        executed: 'no',
        retry_same_key: true,
      });
    }

    await server.restart();
    await new Promise((r) => setTimeout(r, 1_100)); // the dying call's lease (1 s) runs out
    // The same store object works again; the dying call's row stayed pending: fail closed, listed for reconcile.
    const retried = await settled(call('down-key-dying01'), 30_000);
    expect(retried.error).toBeInstanceOf(IdempotencyOutcomeUnknownError);
    expect((await reconcileReport(store)).map((r) => r.key)).toContain('down-key-dying01');
    for (const k of keys) expect((await call(k)).wasReplay).toBe(true);
    expect((await call('down-key-new00001')).wasReplay).toBe(false);

    expect([...effects.values()].filter((n) => n !== 1)).toEqual([]);
    expect(effects.size).toBe(5);
  }, 120_000);
});

describe.each(KINDS)('%s that cannot be reached', (kind) => {
  const scheme = { postgres: 'postgres', mysql: 'mysql', redis: 'redis' }[kind];
  const path = kind === 'redis' ? '' : '/idemgen';
  const runOnce = async (url: string) => {
    const store = await openStore(url);
    let ran = false;
    const idem = createIdempotency({ store, telemetry: false });
    const out = await settled(
      idem.run({ operation: 'op', key: 'unreachable-0001', args: {}, mechanism: 'fail-closed' }, async () => {
        ran = true;
      }),
    );
    await store.close().catch(() => undefined);
    return { ...out, ran };
  };

  it('nothing listening: IdempotencyStoreUnavailableError at once, the handler never runs', async () => {
    const port = await freePort();
    const out = await runOnce(`${scheme}://root@127.0.0.1:${port}${path}`);
    expect(out.error).toBeInstanceOf(IdempotencyStoreUnavailableError);
    expect(out.ran).toBe(false);
    expect(out.elapsed).toBeLessThan(WITHIN_MS);
  });

  it('an OP-5 saga gets the same typed error and calls nothing', async () => {
    const store = await openStore(`${scheme}://root@127.0.0.1:${await freePort()}${path}`);
    let called = false;
    const out = await settled(
      runSaga(
        store,
        { operation: 'POST /orders', key: 'unreachable-saga-01', args: {} },
        {
          call: async () => {
            called = true;
            return { externalId: 'o1', result: 1 };
          },
        },
      ),
    );
    await store.close().catch(() => undefined);
    expect(out.error).toBeInstanceOf(IdempotencyStoreUnavailableError);
    expect(out.error).toMatchObject({ key: 'unreachable-saga-01', operation: 'POST /orders' });
    expect(called).toBe(false);
  });

  it('a server that never answers: the URL connect timeout bounds it (no hang)', async () => {
    const silent = await silentServer();
    try {
      const url = `${scheme}://root@127.0.0.1:${silent.port}${path}?connectTimeoutMs=500&commandTimeoutMs=500`;
      const out = await runOnce(url);
      expect(out.error).toBeInstanceOf(IdempotencyStoreUnavailableError);
      expect(out.ran).toBe(false);
      expect(out.elapsed).toBeLessThan(WITHIN_MS);
    } finally {
      await silent.close();
    }
  });
});

describe('idemgen reconcile against a store that never answers', () => {
  it.each(KINDS)('%s: a store_unavailable diagnostic within the URL timeout, no stack trace', async (kind) => {
    const silent = await silentServer();
    try {
      const path = kind === 'redis' ? '' : '/idemgen';
      const url = `${kind}://root@127.0.0.1:${silent.port}${path}?connectTimeoutMs=300`;
      const out = await settled(runCli(['reconcile', '--store', url], process.cwd()));
      const run = out.value as { code: number; stderr: string };
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/store_unavailable|Cannot read the dedup store/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(out.elapsed).toBeLessThan(WITHIN_MS);
    } finally {
      await silent.close();
    }
  });
});

describe('store URL timeouts', () => {
  it('a timeout that is not a positive whole number of ms is refused with its name', async () => {
    await expect(openStore('redis://127.0.0.1:1?commandTimeoutMs=soon')).rejects.toThrow(
      /commandTimeoutMs="soon" must be a positive whole number of milliseconds/,
    );
    await expect(openStore('postgres://u@127.0.0.1:1/db?connectTimeoutMs=0')).rejects.toThrow(/connectTimeoutMs="0"/);
  });
});
