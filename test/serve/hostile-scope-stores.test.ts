/**
 * Store scopes compare exactly on every engine: `alice` and `alice   ` (and `Alice`) are three principals,
 * three rows, three effects — on SQLite, PostgreSQL, MySQL/MariaDB and Redis (the real servers of the test
 * setup), through the dedup state machine and the saga table. MariaDB's `utf8mb4_bin` is PAD SPACE, so the
 * identity columns are VARBINARY; a table made by the old migration is converted by the new one (twice is
 * harmless) with its rows intact, through `migrateStore` (serve, the generated modules' `main()`) and
 * `idemgen migrate`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { renderStoreMigration } from '../../src/emit/sql/index.js';
import { createIdempotency } from '../../packages/runtime/src/core/idempotency.js';
import { migrateStore } from '../../packages/runtime/src/store/migrate.js';
import { createMysqlStore } from '../../packages/runtime/src/store/mysql.js';
import { runCli } from '../helpers/cli.js';
import { makeStore, sqlConfigFor, type StoreKind, type TestStore } from '../runtime/store/stores.js';

const SCOPES = ['alice', 'alice   ', 'Alice'];
const opened: TestStore[] = [];
afterAll(async () => {
  for (const s of opened.splice(0)) await s.cleanup();
});

/** One effect per distinct scope, each answered with its own; the same scope again is a replay. */
async function threeScopes(store: TestStore['store']): Promise<void> {
  const idem = createIdempotency({ store });
  const effects: string[] = [];
  const run = (scope: string) =>
    idem.run(
      { operation: 'tool:send', key: 'pad-space-key-000001', scope, args: { to: 'x' }, mechanism: 'fail-closed' },
      async () => {
        effects.push(scope);
        return { sentFor: scope };
      },
    );
  const answers = [];
  for (const scope of SCOPES) answers.push(await run(scope));
  expect(effects).toEqual(SCOPES);
  expect(answers.map((a) => [a.wasReplay, a.result])).toEqual(SCOPES.map((s) => [false, { sentFor: s }]));
  const again = await run('alice   ');
  expect([again.wasReplay, again.result]).toEqual([true, { sentFor: 'alice   ' }]);
  expect(effects).toHaveLength(3);
  for (const scope of SCOPES) expect((await store.get({ scope, key: 'pad-space-key-000001' }))?.scope).toBe(scope);
}

describe.each<StoreKind>(['sqlite', 'postgres', 'mysql', 'redis'])('%s: scopes compare exactly', (kind) => {
  it('"alice", "alice   " and "Alice" are three rows and three effects; each replays its own', async () => {
    const s = await makeStore(kind, inject('pgUrl'), 'padspace');
    opened.push(s);
    await threeScopes(s.store);
  });

  it('the saga table too', async () => {
    const s = await makeStore(kind, inject('pgUrl'), 'padsaga');
    opened.push(s);
    const saga = s.store.saga(s.location.sagaTable);
    const now = Date.now();
    const claim = (scope: string) =>
      saga.claim({
        scope,
        key: 'pad-space-saga-key-01',
        operation: 'POST /things',
        argsHash: 'a'.repeat(64),
        compensationOperation: null,
        leaseMs: 60_000,
        ttlMs: 3_600_000,
        now,
        leaseToken: `lease-${scope.length}-${scope.trim()}`,
      });
    const outcomes = [];
    for (const scope of SCOPES) outcomes.push((await claim(scope)).claimed);
    expect(outcomes).toEqual([true, true, true]);
    expect((await claim('alice   ')).claimed).toBe(false);
  });
});

/** The dedup and saga tables exactly as the migration before VARBINARY made them. */
function oldShapedDdl(database: string, name: string): string {
  const { dedupTable, sagaTable } = sqlConfigFor(name);
  const varchar = (n: number) => `VARCHAR(${n}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`;
  const tail = ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;';
  return `
CREATE TABLE \`${database}\`.\`${dedupTable}\` (
  scope ${varchar(200)} NOT NULL DEFAULT '', idempotency_key ${varchar(255)} NOT NULL,
  operation ${varchar(200)} NOT NULL, args_hash CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  mechanism ${varchar(16)} NOT NULL, status ${varchar(16)} NOT NULL,
  result LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, error LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
  external_id TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, lease_token ${varchar(64)}, lease_expires_at BIGINT,
  attempts INT NOT NULL DEFAULT 0, created_at BIGINT NOT NULL, completed_at BIGINT, expires_at BIGINT NOT NULL,
  args_summary LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, resolution LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
  PRIMARY KEY (scope, idempotency_key), CHECK (status IN ('pending', 'completed', 'failed')),
  INDEX ${dedupTable}_reconcile_idx (status, lease_expires_at), INDEX ${dedupTable}_prune_idx (expires_at)
${tail}
CREATE TABLE \`${database}\`.\`${sagaTable}\` (
  scope ${varchar(200)} NOT NULL DEFAULT '', idempotency_key ${varchar(255)} NOT NULL,
  operation ${varchar(200)} NOT NULL, args_hash CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  status ${varchar(16)} NOT NULL, external_id TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
  compensation_operation ${varchar(200)}, result LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
  error LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, lease_token ${varchar(64)}, lease_expires_at BIGINT,
  created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
  PRIMARY KEY (scope, idempotency_key),
  CHECK (status IN ('pending', 'completed', 'compensating', 'compensated', 'failed'))
${tail}`;
}

describe('MariaDB: an old-shaped table (VARCHAR utf8mb4_bin, PAD SPACE) and the migration', () => {
  const url = () => inject('mysqlUrl');
  const columnTypes = async (admin: mysql.Connection, database: string) => {
    const [rows] = await admin.query(
      `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS d FROM information_schema.COLUMNS
       WHERE TABLE_SCHEMA = ? AND COLUMN_NAME IN ('scope', 'idempotency_key') ORDER BY 1, 2`,
      [database],
    );
    return (rows as { t: string; c: string; d: string }[]).map((r) => `${r.t}.${r.c}:${r.d}`);
  };

  it('the old table shares one row between "alice" and "alice   "; after the migration they are two', async () => {
    const name = `old_${process.pid}_${Date.now() % 100000}`;
    const database = `rt_${name}`;
    const { dedupTable, sagaTable } = sqlConfigFor(name);
    const admin = await mysql.createConnection({ uri: url(), multipleStatements: true });
    await admin.query(`CREATE DATABASE \`${database}\``);
    try {
      await admin.query(oldShapedDdl(database, name));
      // The bug, shown on the real server: the padded scope finds the other principal's row.
      const before = createMysqlStore({ uri: url(), database, table: dedupTable });
      const idem = createIdempotency({ store: before });
      const req = (scope: string) => ({
        operation: 'tool:send',
        key: 'old-table-key-000001',
        scope,
        args: { to: 'x' },
        mechanism: 'fail-closed' as const,
      });
      await idem.run(req('alice'), async () => 'alice result');
      const shared = await idem.run(req('alice   '), async () => 'padded result');
      expect([shared.wasReplay, shared.result]).toEqual([true, 'alice result']);
      await before.close();
      await admin.query(`DELETE FROM \`${database}\`.\`${dedupTable}\` WHERE scope <> 'alice'`);

      // The migration serve and main() apply at start; run twice: the second finds nothing to convert.
      const storeUrl = `${url()}?database=${database}&table=${dedupTable}`;
      const ddl = renderStoreMigration('mysql', sqlConfigFor(name, database), { saga: true }).up;
      await migrateStore(storeUrl, { sqlite: '', postgres: '', mysql: ddl });
      await migrateStore(storeUrl, { sqlite: '', postgres: '', mysql: ddl });
      expect(await columnTypes(admin, database)).toEqual([
        `${dedupTable}.idempotency_key:varbinary`,
        `${dedupTable}.scope:varbinary`,
        `${sagaTable}.idempotency_key:varbinary`,
        `${sagaTable}.scope:varbinary`,
      ]);

      const after = createMysqlStore({ uri: url(), database, table: dedupTable });
      const idem2 = createIdempotency({ store: after });
      // The row from before the migration is intact and still alice's.
      const replay = await idem2.run(req('alice'), async () => 'must not run');
      expect([replay.wasReplay, replay.result]).toEqual([true, 'alice result']);
      const padded = await idem2.run(req('alice   '), async () => 'padded result');
      expect([padded.wasReplay, padded.result]).toEqual([false, 'padded result']);
      expect((await after.get({ scope: 'alice   ', key: 'old-table-key-000001' }))?.scope).toBe('alice   ');
      await after.close();
    } finally {
      await admin.query(`DROP DATABASE \`${database}\``);
      await admin.end();
    }
  });

  it('`idemgen migrate` converts an old-shaped table the same way', async () => {
    const name = `cli_${process.pid}_${Date.now() % 100000}`;
    const database = `rt_${name}`;
    const admin = await mysql.createConnection({ uri: url(), multipleStatements: true });
    await admin.query(`CREATE DATABASE \`${database}\``);
    try {
      // Default table names: what `idemgen migrate` creates without a config.
      await admin.query(
        oldShapedDdl(database, name)
          .replaceAll(`${name}_dedup`, 'idemgen_dedup')
          .replaceAll(`${name}_saga`, 'idemgen_saga'),
      );
      const run = await runCli(
        ['migrate', '--store', `${url()}?database=${database}`],
        mkdtempSync(join(tmpdir(), 'idemgen-migrate-pad-')),
      );
      expect([run.code, run.stderr]).toEqual([0, expect.any(String)]);
      expect(await columnTypes(admin, database)).toEqual([
        'idemgen_dedup.idempotency_key:varbinary',
        'idemgen_dedup.scope:varbinary',
        'idemgen_saga.idempotency_key:varbinary',
        'idemgen_saga.scope:varbinary',
      ]);
    } finally {
      await admin.query(`DROP DATABASE \`${database}\``);
      await admin.end();
    }
  });
});
