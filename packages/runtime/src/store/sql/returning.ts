/**
 * "Write a row and hand it back" on every dialect. SQLite and PostgreSQL append `RETURNING`; MySQL has
 * none (MariaDB only on INSERT/DELETE, not UPDATE), so there an insert is a plain INSERT whose duplicate
 * key means "not inserted", and an update runs in a transaction: the UPDATE locks the row it matched,
 * and the read that follows on the same connection sees exactly what it wrote — no other writer can
 * slip in between, which a read after the commit could not promise.
 */
import type { SqlDriver } from './driver.js';
import { hasReturning } from './statements.js';

export interface RowWriter {
  /** `insertSql` conflicts do nothing (claimSql/sagaClaimSql); the row written, or undefined when the key exists. */
  insert(
    insertSql: string,
    params: readonly unknown[],
    id: readonly unknown[],
  ): Promise<Record<string, unknown> | undefined>;
  /** A guarded UPDATE; the updated row, or undefined when its WHERE matched nothing. */
  update(
    updateSql: string,
    params: readonly unknown[],
    id: readonly unknown[],
  ): Promise<Record<string, unknown> | undefined>;
}

/** `select` lists the columns; `byId` is the WHERE of one row, bound by `id` (scope, key). */
export function createRowWriter(driver: SqlDriver, table: string, select: string, byId: string): RowWriter {
  const read = `SELECT ${select} FROM ${table} WHERE ${byId}`;
  if (hasReturning(driver.dialect)) {
    const returning = async (sql: string, params: readonly unknown[]) =>
      (await driver.all(`${sql} RETURNING ${select}`, params))[0];
    return { insert: returning, update: returning };
  }
  const { transaction, isDuplicateKey } = driver;
  if (!transaction || !isDuplicateKey)
    throw new TypeError(`the ${driver.dialect} driver needs transaction() and isDuplicateKey()`);
  const inTransaction = transaction.bind(driver) as SqlDriver['transaction'] & object;
  return {
    async insert(sql, params, id) {
      try {
        await driver.run(sql, params);
      } catch (err) {
        if (isDuplicateKey(err)) return undefined;
        throw err;
      }
      // Ours until its lease expires: only the token holder (or a takeover after expiry) changes a pending row.
      return (await driver.all(read, id))[0];
    },
    update: (sql, params, id) =>
      inTransaction(async (tx) => ((await tx.run(sql, params)) === 1 ? (await tx.all(read, id))[0] : undefined)),
  };
}
