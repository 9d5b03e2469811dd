/**
 * Rows that no longer parse, seen the same way by every store: a completed or failed row whose stored
 * result is not the JSON (or marker) stored-value.ts writes. The stores list them (`listCorrupt`) and
 * repair them by compare-and-set on the damaged value (`repairCorrupt`).
 */
import { decodeResult } from './stored-value.js';
import type { CorruptRow, DedupRow, RowId } from './store-types.js';

const cut = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

export const describeError = (err: unknown): string =>
  err instanceof Error ? `${err.name}: ${err.message}` : String(err);

/** The row as a corrupt-row entry when its result does not decode; `seen` defaults to the result text. */
export function corruptionOf(row: DedupRow, seen?: string): CorruptRow | undefined {
  if (row.result === null || row.status === 'pending') return undefined;
  try {
    decodeResult(row.result);
    return undefined;
  } catch (err) {
    return {
      scope: row.scope,
      key: row.key,
      row,
      text: cut(row.result),
      reason: describeError(err),
      seen: seen ?? row.result,
    };
  }
}

/** A value that is not a row at all (Redis keeps a row as one JSON text). */
export function unreadableRow(id: RowId, text: string, err: unknown): CorruptRow {
  return { scope: id.scope, key: id.key, text: cut(text), reason: describeError(err), seen: text };
}
