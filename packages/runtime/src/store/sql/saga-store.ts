/**
 * The saga intent table over SQL (docs/contracts.md `idemgen_saga`). Same rules as the
 * dedup store: atomic claim through the primary key, every later write fenced by the lease token.
 */
import { IdempotencyInFlightError } from '../../core/errors.js';
import type { SqlDriver } from './driver.js';
import { num, numOrNull, textOrNull } from './driver.js';
import { createRowWriter } from './returning.js';
import { SAGA_SELECT, sagaClaimSql } from './statements.js';
import type { ClaimResult, SagaRow, SagaStatus, SagaStore } from '../types.js';

const COLUMNS = SAGA_SELECT;

function toSagaRow(r: Record<string, unknown>): SagaRow {
  return {
    scope: String(r.scope),
    key: String(r.idempotency_key),
    operation: String(r.operation),
    argsHash: String(r.args_hash).trim(),
    status: String(r.status) as SagaStatus,
    externalId: textOrNull(r.external_id),
    compensationOperation: textOrNull(r.compensation_operation),
    result: textOrNull(r.result),
    error: textOrNull(r.error),
    leaseToken: textOrNull(r.lease_token),
    leaseExpiresAt: numOrNull(r.lease_expires_at) ?? 0,
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
    expiresAt: num(r.expires_at),
  };
}

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** `table` is already validated and quoted by the caller. */
export function createSqlSagaStore(driver: SqlDriver, table: string): SagaStore {
  const byId = 'scope = ? AND idempotency_key = ?';
  const get = async (id: { scope: string; key: string }): Promise<SagaRow | undefined> => {
    const rows = await driver.all(`SELECT ${COLUMNS} FROM ${table} WHERE ${byId}`, [id.scope, id.key]);
    return rows[0] ? toSagaRow(rows[0]) : undefined;
  };
  const rows = createRowWriter(driver, table, COLUMNS, byId);
  const claim = sagaClaimSql(driver.dialect, table);
  return {
    async claim(i): Promise<ClaimResult<SagaRow>> {
      for (let turn = 0; turn < 5; turn++) {
        const inserted = await rows.insert(
          claim,
          [
            i.scope,
            i.key,
            i.operation,
            i.argsHash,
            i.compensationOperation,
            i.leaseToken,
            i.now + i.leaseMs,
            i.now,
            i.now,
            i.now + i.ttlMs,
          ],
          [i.scope, i.key],
        );
        if (inserted) return { claimed: true, row: toSagaRow(inserted) };
        const row = await get(i);
        if (!row) continue;
        // A compensating row is as unresolved as a pending one: an undo in progress is never forgotten.
        if (row.status === 'pending' || row.status === 'compensating' || row.expiresAt > i.now)
          return { claimed: false, row };
        await driver.run(
          `DELETE FROM ${table} WHERE ${byId} AND status NOT IN ('pending', 'compensating') AND expires_at <= ?`,
          [i.scope, i.key, i.now],
        );
      }
      throw new IdempotencyInFlightError(`saga claim for ${i.key} did not settle after 5 attempts (heavy contention)`, {
        key: i.key,
        operation: i.operation,
        scope: i.scope,
      });
    },
    get,
    async transition(s) {
      const sets = ['status = ?', 'updated_at = ?'];
      const params: unknown[] = [s.to, s.now];
      for (const [col, v] of [
        ['external_id', s.externalId],
        ['result', s.result],
        ['error', s.error],
      ] as const) {
        if (v !== undefined) {
          sets.push(`${col} = ?`);
          params.push(v);
        }
      }
      if (s.leaseMs !== undefined) {
        sets.push('lease_expires_at = ?');
        params.push(s.now + s.leaseMs);
      }
      const sql = `UPDATE ${table} SET ${sets.join(', ')} WHERE ${byId} AND lease_token = ? AND status IN (${placeholders(s.from.length)})`;
      return (await driver.run(sql, [...params, s.scope, s.key, s.leaseToken, ...s.from])) === 1;
    },
    async takeOver(o) {
      const row = await rows.update(
        `UPDATE ${table} SET lease_token = ?, lease_expires_at = ?, updated_at = ? WHERE ${byId} AND lease_token = ? ` +
          `AND lease_expires_at <= ? AND status IN (${placeholders(o.from.length)})`,
        [o.newToken, o.now + o.leaseMs, o.now, o.scope, o.key, o.expectedToken, o.now, ...o.from],
        [o.scope, o.key],
      );
      return row ? toSagaRow(row) : undefined;
    },
    async release(f) {
      const sql = `DELETE FROM ${table} WHERE ${byId} AND lease_token = ? AND status = 'pending'`;
      return (await driver.run(sql, [f.scope, f.key, f.leaseToken])) === 1;
    },
    async renewLease(r) {
      const sql = `UPDATE ${table} SET lease_expires_at = ? WHERE ${byId} AND lease_token = ? AND status IN ('pending', 'compensating')`;
      return (await driver.run(sql, [r.now + r.leaseMs, r.scope, r.key, r.leaseToken])) === 1;
    },
    async listStale(now, limit = 1000) {
      const stale = await driver.all(
        `SELECT ${COLUMNS} FROM ${table} WHERE status IN ('pending', 'compensating') AND lease_expires_at <= ? ` +
          `ORDER BY lease_expires_at LIMIT ?`,
        [now, limit],
      );
      return stale.map(toSagaRow);
    },
  };
}
