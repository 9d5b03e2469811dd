import type { Dialect, ResolvedConfig } from '../../../src/config/types.js';
import { emitSql } from '../../../src/emit/sql/index.js';
import { buildShopPlan } from './plan-fixture.js';

/** docs/contracts.md, column for column: what the runtime stores rely on. */
export const DEDUP_COLUMNS = [
  'args_hash',
  'args_summary',
  'attempts',
  'completed_at',
  'created_at',
  'error',
  'expires_at',
  'external_id',
  'idempotency_key',
  'lease_expires_at',
  'lease_token',
  'mechanism',
  'operation',
  'resolution',
  'result',
  'scope',
  'status',
];
export const SAGA_COLUMNS = [
  'args_hash',
  'compensation_operation',
  'created_at',
  'error',
  'expires_at',
  'external_id',
  'idempotency_key',
  'lease_expires_at',
  'lease_token',
  'operation',
  'result',
  'scope',
  'status',
  'updated_at',
];

export interface MigrationPair {
  up: string;
  down: string;
}

/** The emitted files for one dialect, by migration name (`0001_idemgen_dedup`). */
export function emittedMigrations(dialect: Dialect, config: ResolvedConfig): Map<string, MigrationPair> {
  const { files, diagnostics } = emitSql(buildShopPlan(), { ...config, dialects: [dialect] });
  if (diagnostics.some((d) => d.severity === 'error')) throw new Error(JSON.stringify(diagnostics));
  const out = new Map<string, MigrationPair>();
  for (const f of files) {
    const m = /\/([^/]+)\.(up|down)\.sql$/.exec(f.path);
    if (!m) throw new Error(`unexpected file ${f.path}`);
    const pair = out.get(m[1]) ?? { up: '', down: '' };
    pair[m[2] as 'up' | 'down'] = f.contents;
    out.set(m[1], pair);
  }
  return out;
}

/** Bind values for the claim statement, in CLAIM_COLUMNS order. */
/**
 * The claim's binds. SQLite takes the caller's times (lease expiry, now, now + TTL); PostgreSQL and
 * MySQL/MariaDB read their own clock in the statement and bind the lease and TTL lengths instead.
 */
export function claimParams(
  key: string,
  leaseToken: string,
  clock: 'caller' | 'server' = 'caller',
  now = 1_700_000_000_000,
): (string | number)[] {
  const times = clock === 'server' ? [30_000, 86_400_000] : [now + 30_000, now, now + 86_400_000];
  return ['tenant-a', key, 'POST /charges', 'a'.repeat(64), 'saga', leaseToken, ...times, '{"amount":"number"}'];
}

/** A 63-character table name: the longest the policy accepts, so derived index names must be shortened. */
export const LONGEST_TABLE = `t${'x'.repeat(62)}`;
