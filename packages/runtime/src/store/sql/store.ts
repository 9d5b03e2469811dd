/**
 * The dedup store over SQL (SQLite, PostgreSQL and MySQL/MariaDB share every statement but the claim,
 * statements.ts, and RETURNING, returning.ts). Atomicity comes from the primary key
 * `(scope, idempotency_key)` — never from a check-then-insert (docs/concepts.md#store-rules).
 */
import { IdempotencyInFlightError } from '../../core/errors.js';
import type { SqlDriver } from './driver.js';
import { num, numOrNull, qualifiedTable, textOrNull } from './driver.js';
import { createRowWriter } from './returning.js';
import { claimSql, DEDUP_SELECT, serverClockSql } from './statements.js';
import { guardMissingTable } from './missing-table.js';
import { createSqlSagaStore } from './saga-store.js';
import { corruptionOf } from '../../core/corrupt.js';
import { mechanismName } from '../../core/mechanism.js';
import type {
  ClaimInput,
  ClaimResult,
  DedupRow,
  DedupStatus,
  FencedInput,
  CorruptRow,
  FullDedupStore,
  RowId,
  SagaStore,
  StoreMechanism,
} from '../types.js';

/**
 * The SQL stores restart the window at completion without writing `expires_at` (an indexed column: moving
 * it cost a completion about 7 µs of index and WAL work on SQLite, a tenth of a call). The column keeps
 * the claim's `created_at + ttl`; a resolved row's window ends `ttl` after `completed_at`, which is what
 * `DedupRow.expiresAt` reports, what the claim and prune compare (`EXPIRY`), and what every other store
 * stores. `expires_at ≤ EXPIRY` always (completion follows the claim), so prune keeps its index.
 */
const EXPIRY = 'COALESCE(completed_at, created_at) + (expires_at - created_at)';

function expiryOf(r: Record<string, unknown>, status: DedupStatus): number {
  const expires = num(r.expires_at);
  const completed = numOrNull(r.completed_at);
  return status === 'pending' || completed === null ? expires : completed + (expires - num(r.created_at));
}

function toDedupRow(r: Record<string, unknown>): DedupRow {
  const status = String(r.status) as DedupStatus;
  return {
    scope: String(r.scope),
    key: String(r.idempotency_key),
    operation: String(r.operation),
    argsHash: String(r.args_hash).trim(),
    mechanism: mechanismName(String(r.mechanism) as StoreMechanism),
    status,
    result: textOrNull(r.result),
    error: textOrNull(r.error),
    externalId: textOrNull(r.external_id),
    leaseToken: textOrNull(r.lease_token),
    leaseExpiresAt: numOrNull(r.lease_expires_at) ?? 0,
    attempts: num(r.attempts),
    createdAt: num(r.created_at),
    completedAt: numOrNull(r.completed_at),
    expiresAt: expiryOf(r, status),
    argsSummary: textOrNull(r.args_summary),
    resolution: textOrNull(r.resolution),
  };
}

const COLUMNS = DEDUP_SELECT;

export interface SqlStoreOptions {
  table?: string;
  schema?: string;
  /**
   * Whose clock decides leases and expiry. `store` (default): the database server's, read inside each
   * statement, so application servers with skewed clocks agree (PostgreSQL, MySQL/MariaDB). `caller`:
   * the `now` each call passes (tests with a simulated clock). SQLite is single-host: always the caller's.
   */
  clock?: StoreClock;
}

/** Whose clock decides leases and expiry (PostgreSQL, MySQL/MariaDB; SQLite always takes the caller's). */
export type StoreClock = 'store' | 'caller';

/**
 * "Now" in a statement: the server's clock (`sql`, nothing to bind) or the caller's (`?`, bound to the
 * input's `now`). `at(now)` is what to bind where `sql` appears.
 */
interface Clock {
  sql: string;
  at(now: number): unknown[];
  /** "now + ms": `?` bound to the sum on the caller's clock (PostgreSQL cannot type `? + ?`). */
  plus: string;
  plusAt(now: number, ms: number): unknown[];
}

function clockOf(dialect: SqlDriver['dialect'], choice: StoreClock | undefined): Clock {
  const server = choice === 'caller' ? undefined : serverClockSql(dialect);
  if (server === undefined) return { sql: '?', at: (now) => [now], plus: '?', plusAt: (now, ms) => [now + ms] };
  return { sql: server, at: () => [], plus: `${server} + ?`, plusAt: (_now, ms) => [ms] };
}

/**
 * What a claim writes besides the row id, in the column order of the claim INSERT and the renewing UPDATE
 * (`claimSql`): on the server's clock the lease and TTL lengths, on the caller's the three times.
 */
function claimValues(i: ClaimInput, server: boolean): unknown[] {
  const times = server ? [i.leaseMs, i.ttlMs] : [i.now + i.leaseMs, i.now, i.now + i.ttlMs];
  return [i.operation, i.argsHash, i.mechanism, i.leaseToken, ...times, i.argsSummary ?? null];
}

/** What the dedup table's statements share: the driver, the table, the clock and the row helpers. */
interface SqlContext {
  driver: SqlDriver;
  /** The qualified table name. */
  t: string;
  rows: ReturnType<typeof createRowWriter>;
  clock: ReturnType<typeof clockOf>;
  /** The store's clock decides (`clock.sql` is the server's now), not the caller's `now`. */
  server: boolean;
  /** The clock's SQL expression: the server's now, or `?` for the caller's. */
  N: string;
  byId: string;
  get(id: RowId): Promise<DedupRow | undefined>;
}

/** The claim: insert the row, or return the live one, or renew an expired one in place. */
function sqlClaim(ctx: SqlContext): FullDedupStore['claim'] {
  const { driver, t, rows, clock, server, N, byId, get } = ctx;
  const claim = claimSql(driver.dialect, t, server ? N : undefined);
  /** On the server's clock: the row and the clock that judges it, read in one statement. */
  const readAt = async (i: ClaimInput): Promise<{ row: DedupRow; now: number } | undefined> => {
    const found = await driver.all(`SELECT ${COLUMNS}, ${N} AS store_now FROM ${t} WHERE ${byId}`, [i.scope, i.key]);
    return found[0] && { row: toDedupRow(found[0]), now: num(found[0].store_now) };
  };
  return async (i): Promise<ClaimResult> => {
    // Bounded: each turn either inserts, returns the live row, or removes an expired one.
    for (let turn = 0; turn < 5; turn++) {
      const inserted = await rows.insert(claim, [i.scope, i.key, ...claimValues(i, server)], [i.scope, i.key]);
      if (inserted) return { claimed: true, row: toDedupRow(inserted) };
      let row: DedupRow | undefined;
      let now = i.now;
      if (server) {
        const read = await readAt(i);
        if (read) ({ row, now } = read);
      } else row = await get(i);
      if (!row) continue; // released or pruned between the two statements
      if (row.status === 'pending' || row.expiresAt > now) return { claimed: false, row, now };
      // Re-initialise the expired row in place (one compare-and-set, like the insert) so an operator's
      // `resolution` on it survives the retry it allowed.
      const renewed = await rows.update(
        `UPDATE ${t} SET operation = ?, args_hash = ?, mechanism = ?, status = 'pending', result = NULL, error = NULL, ` +
          `external_id = NULL, lease_token = ?, lease_expires_at = ${clock.plus}, attempts = 1, ` +
          `created_at = ${N}, completed_at = NULL, expires_at = ${clock.plus}, args_summary = ? ` +
          `WHERE ${byId} AND status <> 'pending' AND ${EXPIRY} <= ${N}`,
        [...claimValues(i, server), i.scope, i.key, ...clock.at(i.now)],
        [i.scope, i.key],
      );
      if (renewed) return { claimed: true, row: toDedupRow(renewed) };
    }
    throw new IdempotencyInFlightError(`dedup claim for ${i.key} did not settle after 5 attempts (heavy contention)`, {
      key: i.key,
      operation: i.operation,
      scope: i.scope,
    });
  };
}

/** An operator's or reconcile's hand on a pending row: resolve it, or take over its expired lease. */
function sqlSettlement({ t, rows, clock, N, byId }: SqlContext): Pick<FullDedupStore, 'resolve' | 'takeOver'> {
  return {
    async resolve(r) {
      const completed = r.as === 'completed';
      // Completed: the full window from the resolution; failed / not-executed: expired at once (memory.ts
      // resolvedPatch) — a window of length 0 (expires_at = created_at), so EXPIRY is the resolution's time.
      // MySQL runs SET assignments left to right: expires_at reads created_at, which no assignment changes.
      const row = await rows.update(
        `UPDATE ${t} SET status = ?, result = CASE WHEN ? = 1 THEN ? ELSE result END, error = ?, lease_token = NULL, ` +
          `expires_at = CASE WHEN ? = 1 THEN expires_at ELSE created_at END, completed_at = ${N}, resolution = ? ` +
          `WHERE ${byId} AND status = 'pending' AND lease_expires_at <= ${N}`,
        [
          completed ? 'completed' : 'failed',
          completed ? 1 : 0,
          completed ? (r.result ?? null) : null,
          completed ? null : r.error,
          completed ? 1 : 0,
          ...clock.at(r.now),
          r.resolution,
          r.scope,
          r.key,
          ...clock.at(r.now),
        ],
        [r.scope, r.key],
      );
      return row ? toDedupRow(row) : undefined;
    },
    async takeOver(o) {
      // Compare-and-set on the old token and the expired lease: exactly one taker wins.
      const row = await rows.update(
        `UPDATE ${t} SET lease_token = ?, lease_expires_at = ${clock.plus}, attempts = attempts + 1, error = NULL ` +
          `WHERE ${byId} AND status = 'pending' AND lease_token = ? AND lease_expires_at <= ${N}`,
        [o.newToken, ...clock.plusAt(o.now, o.leaseMs), o.scope, o.key, o.expectedToken, ...clock.at(o.now)],
        [o.scope, o.key],
      );
      return row ? toDedupRow(row) : undefined;
    },
  };
}

/** Reconcile's side of the table: damaged rows listed and repaired, expired rows pruned. */
function sqlUpkeep({
  driver,
  t,
  clock,
  N,
  byId,
}: SqlContext): Pick<FullDedupStore, 'listCorrupt' | 'repairCorrupt' | 'prune'> {
  return {
    async listCorrupt(limit = 1000) {
      // Every resolved row with a result is decoded here, page by page in key order (an operator's scan).
      const out: CorruptRow[] = [];
      let after: [string, string] | undefined;
      for (;;) {
        const page = await driver.all(
          `SELECT ${COLUMNS} FROM ${t} WHERE status <> 'pending' AND result IS NOT NULL` +
            (after ? ' AND (scope > ? OR (scope = ? AND idempotency_key > ?))' : '') +
            ' ORDER BY scope, idempotency_key LIMIT ?',
          after ? [after[0], after[0], after[1], 500] : [500],
        );
        for (const raw of page) {
          const bad = corruptionOf(toDedupRow(raw));
          if (bad) out.push(bad);
          if (out.length >= limit) return out;
        }
        if (page.length < 500) return out;
        const last = toDedupRow(page[page.length - 1] as Record<string, unknown>);
        after = [last.scope, last.key];
      }
    },
    async repairCorrupt(r) {
      // Compare-and-set on the damaged text: a row rewritten since it was listed is left alone. `completed` keeps
      // the row's window (memory.ts repairPatch); failed / not-executed: a window of length 0 (expires_at =
      // created_at), so the row's EXPIRY is its completion, already past, and the next claim replaces it.
      const completed = r.as === 'completed';
      const sql =
        `UPDATE ${t} SET status = ?, result = ?, error = ?, lease_token = NULL, ` +
        `expires_at = CASE WHEN ? = 1 THEN expires_at ELSE created_at END, resolution = ? ` +
        `WHERE ${byId} AND status <> 'pending' AND result = ?`;
      const params = [
        completed ? 'completed' : 'failed',
        completed ? (r.result ?? null) : null,
        completed ? null : r.error,
        completed ? 1 : 0,
        r.resolution,
        r.scope,
        r.key,
        r.seen,
      ];
      return (await driver.run(sql, params)) === 1;
    },
    async prune(now) {
      // expires_at ≤ EXPIRY: the indexed column narrows the scan, EXPIRY decides.
      const sql = `DELETE FROM ${t} WHERE expires_at <= ${N} AND status <> 'pending' AND ${EXPIRY} <= ${N}`;
      return driver.run(sql, [...clock.at(now), ...clock.at(now)]);
    },
  };
}

export function createSqlStore(rawDriver: SqlDriver, opts: SqlStoreOptions = {}): FullDedupStore {
  const driver = guardMissingTable(rawDriver);
  const t = qualifiedTable(opts.table ?? 'idemgen_dedup', opts.schema, driver.dialect);
  const byId = 'scope = ? AND idempotency_key = ?';
  const rows = createRowWriter(driver, t, COLUMNS, byId);
  const clock = clockOf(driver.dialect, opts.clock);
  const N = clock.sql;
  const fenced = `${byId} AND lease_token = ? AND status = 'pending'`;
  const fencedParams = (f: FencedInput): unknown[] => [f.scope, f.key, f.leaseToken];
  const sagas = new Map<string, SagaStore>();
  const get = async (id: RowId): Promise<DedupRow | undefined> => {
    const rows = await driver.all(`SELECT ${COLUMNS} FROM ${t} WHERE ${byId}`, [id.scope, id.key]);
    return rows[0] ? toDedupRow(rows[0]) : undefined;
  };
  const ctx: SqlContext = { driver, t, rows, clock, server: N !== '?', N, byId, get };

  return {
    claim: sqlClaim(ctx),
    get,
    async complete(c) {
      // The window restarts here: EXPIRY counts it from completed_at.
      const sql = `UPDATE ${t} SET status = 'completed', result = ?, external_id = ?, error = NULL, completed_at = ${N} WHERE ${fenced}`;
      return (await driver.run(sql, [c.result, c.externalId ?? null, ...clock.at(c.now), ...fencedParams(c)])) === 1;
    },
    async fail(f) {
      const sql = `UPDATE ${t} SET status = 'failed', error = ?, completed_at = ${N} WHERE ${fenced}`;
      return (await driver.run(sql, [f.error, ...clock.at(f.now), ...fencedParams(f)])) === 1;
    },
    async markUnknown(f) {
      const sql = `UPDATE ${t} SET error = ?, lease_expires_at = ${N} WHERE ${fenced}`;
      return (await driver.run(sql, [f.error, ...clock.at(f.now), ...fencedParams(f)])) === 1;
    },
    async release(f) {
      return (await driver.run(`DELETE FROM ${t} WHERE ${fenced}`, fencedParams(f))) === 1;
    },
    ...sqlSettlement(ctx),
    async renewLease(r) {
      const sql = `UPDATE ${t} SET lease_expires_at = ${clock.plus} WHERE ${fenced}`;
      return (await driver.run(sql, [...clock.plusAt(r.now, r.leaseMs), ...fencedParams(r)])) === 1;
    },
    async listStale(now, limit = 1000) {
      const stale = await driver.all(
        `SELECT ${COLUMNS} FROM ${t} WHERE status = 'pending' AND lease_expires_at <= ${N} ORDER BY lease_expires_at LIMIT ?`,
        [...clock.at(now), limit],
      );
      return stale.map(toDedupRow);
    },
    ...sqlUpkeep(ctx),
    saga(table = 'idemgen_saga') {
      let s = sagas.get(table);
      if (!s) {
        s = createSqlSagaStore(driver, qualifiedTable(table, opts.schema, driver.dialect));
        sagas.set(table, s);
      }
      return s;
    },
    close: () => driver.close(),
  };
}
