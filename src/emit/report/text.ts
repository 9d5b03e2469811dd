/**
 * Stylish text (eslint-like): grouped by file; each write with its class, mechanism, carrier,
 * key strategy and TTL; then the findings with line:col (or the pointer when no position is known).
 */
import type { Severity } from '../../diagnostics/diagnostic.js';
import { terminalText } from '../../escape/index.js';
import {
  locationText,
  SOURCE_KINDS,
  type AuditDiagnostic,
  type AuditModel,
  type AuditOperation,
  type SourceKind,
} from './model.js';
import { collapsedRows, collapseNotes, rowCells, shorten } from './text-collapse.js';

export interface TextOptions {
  color?: boolean;
  /** `--verbose`: every operation (reads too) with its reasons, and every note on its own line. */
  verbose?: boolean;
  /** `-q`: no operation table; problems, notes counted per rule, and the summary. */
  quiet?: boolean;
}

type Paint = (code: string, s: string) => string;

const SEVERITY_COLOR: Record<Severity, string> = { error: '31', warning: '33', info: '36' };

function table(rows: string[][], indent: string): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => r[i].length))) ?? [];
  return rows.map(
    (r) =>
      indent +
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
  );
}

/** Column headers of the operation rows (text-collapse.ts `rowCells`, after the key). */
const OPERATION_HEADER = ['operation', 'class', 'mechanism', 'key carrier', 'key strategy', 'TTL', 'undo'];
const FINDING_HEADER = ['location', 'severity', 'message', 'rule'];

/** The header over rows, without the columns no row fills (the `undo` column of a file without sagas). */
function withHeader(header: string[], rows: string[][]): string[][] {
  const used = header.map((_, i) => i === 0 || rows.some((r) => (r[i] ?? '') !== ''));
  return [header, ...rows].map((r) => r.filter((_, i) => used[i]));
}

function operationRows(ops: AuditOperation[]): string[][] {
  const row = (o: AuditOperation): string[] => [o.key, ...rowCells(o)];
  return ops.map((o) => row(o).map(terminalText));
}

function diagnosticLines(ds: AuditDiagnostic[], paint: Paint, collapse: boolean): string[] {
  const lines = collapse ? collapseNotes(ds) : ds.map((d) => ({ kind: 'one' as const, d }));
  const rows = lines.map((l) =>
    (l.kind === 'one'
      ? [locationText(l.d), l.d.severity, l.d.message, l.d.code]
      : [
          `${l.count} notes`,
          'info',
          `e.g. ${locationText(l.example)} ${shorten(l.example.message, 90)} (--verbose lists each)`,
          l.code,
        ]
    ).map(terminalText),
  );
  const severities = lines.map((l) => (l.kind === 'one' ? l.d.severity : 'info'));
  const widths = [0, 1, 2].map((i) => Math.max(0, ...[FINDING_HEADER, ...rows].map((r) => r[i].length)));
  const header = `  ${FINDING_HEADER.map((h, i) => (i < 3 ? h.padEnd(widths[i]) : h)).join('  ')}`;
  return [
    paint('2', header),
    ...rows.map((r, i) => {
      const sev = paint(SEVERITY_COLOR[severities[i]], r[1].padEnd(widths[1]));
      return `  ${paint('2', r[0].padEnd(widths[0]))}  ${sev}  ${r[2].padEnd(widths[2])}  ${paint('2', r[3])}`;
    }),
  ];
}

function reasonLines(o: AuditOperation, indent: string, paint: Paint): string[] {
  return [...o.effectReasons, ...o.reasons].map(
    (r) => `${indent}${paint('2', `↳ ${terminalText(r.rule)}:`)} ${terminalText(r.detail)}`,
  );
}

function fileSection(
  file: string,
  ops: AuditOperation[],
  ds: AuditDiagnostic[],
  paint: Paint,
  opts: TextOptions,
): string[] {
  const verbose = opts.verbose === true;
  const lines = [paint('4', terminalText(file))];
  const writes = ops.filter((o) => o.effect === 'write');
  const reads = ops.filter((o) => o.effect === 'read');
  if (ops.length > 0) lines.push(`  ${ops.length} operations: ${writes.length} write, ${reads.length} read-only`);
  // Verbose lists the reads too, so every decision can be disputed by its rule (docs/concepts.md#mechanisms reasons[]).
  const shown = verbose ? [...writes, ...reads] : writes;
  if (verbose) {
    const [header, ...rows] = table(withHeader(OPERATION_HEADER, operationRows(shown)), '  ');
    if (shown.length > 0) lines.push(paint('2', header!));
    for (const [i, row] of rows.entries()) lines.push(row, ...reasonLines(shown[i], '      ', paint));
  } else if (!opts.quiet && shown.length > 0) {
    const [header, ...rows] = table(withHeader(OPERATION_HEADER, collapsedRows(shown)), '  ');
    lines.push(paint('2', header!), ...rows);
  }
  if (ds.length > 0) lines.push(...diagnosticLines(ds, paint, !verbose));
  return lines;
}

function summary(model: AuditModel, paint: Paint): string[] {
  const t = model.totals;
  const classes = Object.entries(t.class)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const mechs = Object.entries(t.mechanism)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const problems = t.diagnostics.error + t.diagnostics.warning;
  const mark = t.diagnostics.error > 0 ? paint('31', '✖') : problems > 0 ? paint('33', '⚠') : paint('32', '✔');
  const lines = [
    `${t.operations} operations (${t.effect.write} write, ${t.effect.read} read-only)`,
    `classes: ${classes || 'none'}`,
    `mechanisms: ${mechs || 'none'}`,
    `${mark} ${problems} problems (${t.diagnostics.error} errors, ${t.diagnostics.warning} warnings), ${t.diagnostics.info} notes`,
  ];
  if (t.sources) {
    const parts = SOURCE_KINDS.filter((k) => t.sources![k].sources > 0).map((k) => {
      const s = t.sources![k];
      return `${SOURCE_LABEL[k]} ${s.sources} (${s.operations} operations, ${s.diagnostics.error} errors, ${s.diagnostics.warning} warnings)`;
    });
    lines.splice(1, 0, `sources: ${parts.join('; ') || 'none'}`);
  }
  return lines;
}

const SOURCE_LABEL: Record<SourceKind, string> = {
  spec: 'specs',
  tools: 'tool lists',
  code: 'code files',
  mcp: 'live MCP servers',
};

export function renderText(model: AuditModel, opts: TextOptions = {}): string {
  const paint: Paint = opts.color ? (code, s) => `\u001b[${code}m${s}\u001b[0m` : (_c, s) => s;
  const files = [
    ...new Set([...model.operations.map((o) => o.source.file), ...model.diagnostics.map((d) => d.file ?? '')]),
  ].sort();
  const out: string[] = [];
  for (const file of files) {
    const ops = model.operations.filter((o) => o.source.file === file);
    const ds = model.diagnostics.filter((d) => (d.file ?? '') === file);
    out.push(...fileSection(file === '' ? '(no file)' : file, ops, ds, paint, opts), '');
  }
  out.push(...summary(model, paint));
  return `${out.join('\n')}\n`;
}
