/**
 * Keeps the default text audit of a large API on one screen: writes that share a row (class, mechanism,
 * carrier, key strategy, TTL) become one counted row, and notes (info) that repeat a rule become one
 * counted line. `--verbose` lists everything; warnings and errors are always listed one by one.
 */
import { carrierText, mechanismText, ttlText, type AuditDiagnostic, type AuditOperation } from './model.js';

/** Groups larger than this are collapsed into one row. */
const COLLAPSE_OVER = 3;

export interface OperationGroup {
  ops: AuditOperation[];
  cells: string[];
}

/** An operation's table cells after its key (the text audit's row, the collapsed rows' shared part). */
export function rowCells(o: AuditOperation): string[] {
  return [
    o.class,
    mechanismText(o),
    carrierText(o.carrier),
    o.keyStrategy ?? '—',
    ttlText(o.ttlSeconds),
    o.compensation !== undefined ? `undo: ${o.compensation}` : '',
  ];
}

/** Operations grouped by their row (first-seen order); a compensation is per operation, so never shared. */
export function groupOperations(ops: AuditOperation[]): OperationGroup[] {
  const groups = new Map<string, OperationGroup>();
  for (const o of ops) {
    const cells = rowCells(o);
    const id = o.compensation !== undefined ? `\u0000${o.key}` : cells.join('\u0000');
    const g = groups.get(id) ?? { ops: [], cells };
    g.ops.push(o);
    groups.set(id, g);
  }
  return [...groups.values()];
}

/** One table row per operation, or one counted row for a large group with its first keys as examples. */
export function collapsedRows(ops: AuditOperation[]): string[][] {
  return groupOperations(ops).flatMap((g) => {
    if (g.ops.length <= COLLAPSE_OVER) return g.ops.map((o) => [o.key, ...g.cells]);
    const examples = g.ops
      .slice(0, 2)
      .map((o) => o.key)
      .join(', ');
    return [[`${g.ops.length} operations (${examples}, …)`, ...g.cells]];
  });
}

export type NoteLine =
  | { kind: 'one'; d: AuditDiagnostic }
  | { kind: 'rule'; code: string; count: number; example: AuditDiagnostic };

/** Warnings and errors one by one; notes of a rule that repeats as one counted line (sorted as first seen). */
export function collapseNotes(ds: AuditDiagnostic[]): NoteLine[] {
  const count = new Map<string, number>();
  for (const d of ds) if (d.severity === 'info') count.set(d.code, (count.get(d.code) ?? 0) + 1);
  const out: NoteLine[] = [];
  const done = new Set<string>();
  for (const d of ds) {
    const n = count.get(d.code) ?? 0;
    if (d.severity !== 'info' || n < 2) out.push({ kind: 'one', d });
    else if (!done.has(d.code)) {
      done.add(d.code);
      out.push({ kind: 'rule', code: d.code, count: n, example: d });
    }
  }
  return out;
}

export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
