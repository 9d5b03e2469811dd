/**
 * The dedup store over SQL (SQLite, PostgreSQL and MySQL/MariaDB share every statement but the claim,
 * statements.ts, and RETURNING, returning.ts). Atomicity comes from the primary key
 * `(scope, idempotency_key)` — never from a check-then-insert (SOP §6).
 */
import { IdempotencyInFlightError } from '../../core/errors.js';
import type { SqlDriver } from './driver.js';
import { num, numOrNull, qualifiedTable, textOrNull } from './driver.js';
import { createRowWriter } from './returning.js';
import { claimSql, DEDUP_SELECT } from './statements.js';
import { guardMissingTable } from './missing-table.js';
import { resolvedPatch } from '../memory.js';
import { createSqlSagaStore } from './saga-store.js';
import { corruptionOf } from '../corrupt.js';
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

function toDedupRow(r: Record<string, unknown>): DedupRow {
  return {
    scope: String(r.scope),
    key: String(r.idempotency_key),
    operation: String(r.operation),
    argsHash: String(r.args_hash).trim(),
    mechanism: String(r.mechanism) as StoreMechanism,
    status: String(r.status) as DedupStatus,
    result: textOrNull(r.result),
    error: textOrNull(r.error),
    externalId: textOrNull(r.external_id),
    leaseToken: textOrNull(r.lease_token),
    leaseExpiresAt: numOrNull(r.lease_expires_at) ?? 0,
    attempts: num(r.attempts),
    createdAt: num(r.created_at),
    completedAt: numOrNull(r.completed_at),
    expiresAt: num(r.expires_at),
    argsSummary: textOrNull(r.args_summary),
    resolution: textOrNull(r.resolution),
  };
}

const COLUMNS = DEDUP_SELECT;

export interface SqlStoreOptions {
  table?: string;
  schema?: string;
}

/** What a claim writes besides the row id, in the column order of the claim INSERT and the renewing UPDATE. */
function claimValues(i: ClaimInput): unknown[] {
  return [
    i.operation,
    i.argsHash,
    i.mechanism,
    i.leaseToken,
    i.now + i.leaseMs,
    i.now,
    i.now + i.ttlMs,
    i.argsSummary ?? null,
  ];
}

export function createSqlStore(rawDriver: SqlDriver, opts: SqlStoreOptions = {}): FullDedupStore {
  const driver = guardMissingTable(rawDriver);
  const t = qualifiedTable(opts.table ?? 'idemgen_dedup', opts.schema, driver.dialect);
  const byId = 'scope = ? AND idempotency_key = ?';
  const rows = createRowWriter(driver, t, COLUMNS, byId);
  const claim = claimSql(driver.dialect, t);
  const fenced = `${byId} AND lease_token = ? AND status = 'pending'`;
  const fencedParams = (f: FencedInput): unknown[] => [f.scope, f.key, f.leaseToken];
  const sagas = new Map<string, SagaStore>();
  const get = async (id: RowId): Promise<DedupRow | undefined> => {
    const rows = await driver.all(`SELECT ${COLUMNS} FROM ${t} WHERE ${byId}`, [id.scope, id.key]);
    return rows[0] ? toDedupRow(rows[0]) : undefined;
  };

  return {
    async claim(i): Promise<ClaimResult> {
      // Bounded: each turn either inserts, returns the live row, or removes an expired one.
      for (let turn = 0; turn < 5; turn++) {
        const inserted = await rows.insert(claim, [i.scope, i.key, ...claimValues(i)], [i.scope, i.key]);
        if (inserted) return { claimed: true, row: toDedupRow(inserted) };
        const row = await get(i);
        if (!row) continue; // released or pruned between the two statements
        if (row.status === 'pending' || row.expiresAt > i.now) return { claimed: false, row };
        // Re-initialise the expired row in place (one compare-and-set, like the insert) so an operator's
        // `resolution` on it survives the retry it allowed.
        const renewed = await rows.update(
          `UPDATE ${t} SET operation = ?, args_hash = ?, mechanism = ?, status = 'pending', result = NULL, error = NULL, ` +
            `external_id = NULL, lease_token = ?, lease_expires_at = ?, attempts = 1, created_at = ?, completed_at = NULL, ` +
            `expires_at = ?, args_summary = ? WHERE ${byId} AND status <> 'pending' AND expires_at <= ?`,
          [...claimValues(i), i.scope, i.key, i.now],
          [i.scope, i.key],
        );
        if (renewed) return { claimed: true, row: toDedupRow(renewed) };
      }
      throw new IdempotencyInFlightError(
        `dedup claim for ${i.key} did not settle after 5 attempts (heavy contention)`,
        { key: i.key, operation: i.operation, scope: i.scope },
      );
    },
    get,
    async complete(c) {
      const sql = `UPDATE ${t} SET status = 'completed', result = ?, external_id = ?, error = NULL, completed_at = ? WHERE ${fenced}`;
      return (await driver.run(sql, [c.result, c.externalId ?? null, c.now, ...fencedParams(c)])) === 1;
    },
    async fail(f) {
      const sql = `UPDATE ${t} SET status = 'failed', error = ?, completed_at = ? WHERE ${fenced}`;
      return (await driver.run(sql, [f.error, f.now, ...fencedParams(f)])) === 1;
    },
    async markUnknown(f) {
      const sql = `UPDATE ${t} SET error = ?, lease_expires_at = ? WHERE ${fenced}`;
      return (await driver.run(sql, [f.error, f.now, ...fencedParams(f)])) === 1;
    },
    async release(f) {
      return (await driver.run(`DELETE FROM ${t} WHERE ${fenced}`, fencedParams(f))) === 1;
    },
    async resolve(r) {
      const p = resolvedPatch(r);
      const row = await rows.update(
        `UPDATE ${t} SET status = ?, result = CASE WHEN ? = 1 THEN ? ELSE result END, error = ?, lease_token = NULL, ` +
          `completed_at = ?, expires_at = CASE WHEN ? = 1 THEN ? ELSE expires_at END, resolution = ? ` +
          `WHERE ${byId} AND status = 'pending' AND lease_expires_at <= ?`,
        [
          p.status,
          r.as === 'completed' ? 1 : 0,
          p.result ?? null,
          p.error ?? null,
          r.now,
          p.expiresAt === undefined ? 0 : 1,
          p.expiresAt ?? 0,
          r.resolution,
          r.scope,
          r.key,
          r.now,
        ],
        [r.scope, r.key],
      );
      return row ? toDedupRow(row) : undefined;
    },
    async takeOver(o) {
      // Compare-and-set on the old token and the expired lease: exactly one taker wins.
      const row = await rows.update(
        `UPDATE ${t} SET lease_token = ?, lease_expires_at = ?, attempts = attempts + 1, error = NULL ` +
          `WHERE ${byId} AND status = 'pending' AND lease_token = ? AND lease_expires_at <= ?`,
        [o.newToken, o.now + o.leaseMs, o.scope, o.key, o.expectedToken, o.now],
        [o.scope, o.key],
      );
      return row ? toDedupRow(row) : undefined;
    },
    async renewLease(r) {
      const sql = `UPDATE ${t} SET lease_expires_at = ? WHERE ${fenced}`;
      return (await driver.run(sql, [r.now + r.leaseMs, ...fencedParams(r)])) === 1;
    },
    async listStale(now, limit = 1000) {
      const stale = await driver.all(
        `SELECT ${COLUMNS} FROM ${t} WHERE status = 'pending' AND lease_expires_at <= ? ORDER BY lease_expires_at LIMIT ?`,
        [now, limit],
      );
      return stale.map(toDedupRow);
    },
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
      // Compare-and-set on the damaged text: a row rewritten since it was listed is left alone.
      const p = resolvedPatch(r);
      const sql =
        `UPDATE ${t} SET status = ?, result = ?, error = ?, lease_token = NULL, ` +
        `expires_at = CASE WHEN ? = 1 THEN ? ELSE expires_at END, resolution = ? ` +
        `WHERE ${byId} AND status <> 'pending' AND result = ?`;
      const expires = p.expiresAt === undefined ? [0, 0] : [1, p.expiresAt];
      const params = [p.status, p.result ?? null, p.error ?? null, ...expires, r.resolution, r.scope, r.key, r.seen];
      return (await driver.run(sql, params)) === 1;
    },
    async prune(now) {
      return driver.run(`DELETE FROM ${t} WHERE expires_at <= ? AND status <> 'pending'`, [now]);
    },
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
