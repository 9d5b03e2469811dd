/**
 * The audit as data: the stable JSON shape of `idemgen audit --format json`, which every other
 * format renders from. Operations are sorted by file then key; diagnostics by file, line, pointer.
 */
import type { VerificationOverride } from '../../config/types.js';
import { overrideOf } from '../../classify/verification.js';
import type { Carrier, KeyStrategy, Mechanism, OperationClass, Plan, PlanEntry, Reason } from '../../classify/types.js';
import { mechanismLabel, MECHANISMS as VOCABULARY } from '../../config/vocabulary.js';
import type { Diagnostic, Severity } from '../../diagnostics/diagnostic.js';

export interface AuditOperation {
  key: string;
  name: string;
  source: { file: string; pointer: string };
  effect: 'read' | 'write';
  effectReasons: Reason[];
  class: OperationClass;
  mechanism: Mechanism;
  toolBoundary?: 'tool-dedup';
  carrier: Carrier | null;
  keyStrategy: KeyStrategy | null;
  ttlSeconds?: number;
  compensation?: string;
  /** How an unknown outcome is settled by reading the API, as a paste-ready override (classify/verification.ts). */
  verification?: VerificationOverride;
  methodIdempotent?: boolean;
  reasons: Reason[];
}

export interface AuditDiagnostic {
  code: string;
  severity: Severity;
  file: string | null;
  pointer: string | null;
  line: number | null;
  col: number | null;
  message: string;
  hint?: string;
}

/** Where a finding or operation came from: a spec, a tool-list file, agent code, a live MCP server. */
export type SourceKind = 'spec' | 'tools' | 'code' | 'mcp';
export const SOURCE_KINDS: readonly SourceKind[] = ['spec', 'tools', 'code', 'mcp'];

export interface SourceTotal {
  sources: number;
  operations: number;
  diagnostics: Record<Severity, number>;
}

export interface AuditTotals {
  /** Per source kind; present when the caller (`idemgen audit`) says which file is which kind. */
  sources?: Record<SourceKind, SourceTotal>;
  operations: number;
  effect: Record<'read' | 'write', number>;
  class: Record<OperationClass, number>;
  mechanism: Record<Mechanism, number>;
  diagnostics: Record<Severity, number>;
}

export interface AuditModel {
  operations: AuditOperation[];
  diagnostics: AuditDiagnostic[];
  totals: AuditTotals;
}

export const CLASSES: readonly OperationClass[] = [
  'read-only',
  'native-key',
  'method-idempotent',
  'owned-store',
  'compensatable',
  'irreversible',
];
export const MECHANISMS: readonly Mechanism[] = VOCABULARY;
const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

function cmp(a: string | number | null | undefined, b: string | number | null | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const sx = String(x);
  const sy = String(y);
  return sx < sy ? -1 : sx > sy ? 1 : 0;
}

function toOperation(e: PlanEntry): AuditOperation {
  const op = e.operation;
  const out: AuditOperation = {
    key: op.key,
    name: op.name,
    source: { file: op.source.file, pointer: op.source.pointer },
    effect: e.effect,
    effectReasons: e.effectReasons,
    class: e.class,
    mechanism: e.mechanism,
    carrier: e.carrier,
    keyStrategy: e.keyStrategy,
    reasons: e.reasons,
  };
  if (e.toolBoundary) out.toolBoundary = e.toolBoundary;
  if (e.ttlSeconds !== undefined) out.ttlSeconds = e.ttlSeconds;
  if (e.compensation !== undefined) out.compensation = e.compensation;
  if (e.verification !== undefined) out.verification = overrideOf(e.verification);
  if (e.methodIdempotent) out.methodIdempotent = true;
  return out;
}

/** A diagnostic as the JSON audit (and `idemgen validate --format json`) writes it. */
export function toDiagnostic(d: Diagnostic): AuditDiagnostic {
  const out: AuditDiagnostic = {
    code: d.code,
    severity: d.severity,
    file: d.file ?? null,
    pointer: d.pointer ?? null,
    line: d.line ?? null,
    col: d.col ?? null,
    message: d.message,
  };
  if (d.hint !== undefined) out.hint = d.hint;
  return out;
}

function zero<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

function sourceTotals(
  kinds: ReadonlyMap<string, SourceKind>,
  operations: AuditOperation[],
  diagnostics: AuditDiagnostic[],
): Record<SourceKind, SourceTotal> {
  const out = Object.fromEntries(
    SOURCE_KINDS.map((k) => [k, { sources: 0, operations: 0, diagnostics: zero(SEVERITIES) }]),
  ) as Record<SourceKind, SourceTotal>;
  for (const kind of kinds.values()) out[kind].sources++;
  for (const o of operations) {
    const kind = kinds.get(o.source.file);
    if (kind) out[kind].operations++;
  }
  for (const d of diagnostics) {
    const kind = d.file === null ? undefined : kinds.get(d.file);
    if (kind) out[kind].diagnostics[d.severity]++;
  }
  return out;
}

export function buildAuditModel(plan: Plan, sources?: ReadonlyMap<string, SourceKind>): AuditModel {
  const operations = plan.apis
    .flatMap((a) => a.entries.map(toOperation))
    .sort((a, b) => cmp(a.source.file, b.source.file) || cmp(a.key, b.key));
  const diagnostics = plan.diagnostics
    .map(toDiagnostic)
    .sort(
      (a, b) =>
        cmp(a.file, b.file) ||
        cmp(a.line, b.line) ||
        cmp(a.col, b.col) ||
        cmp(a.pointer, b.pointer) ||
        cmp(a.code, b.code) ||
        cmp(a.message, b.message),
    );
  const totals: AuditTotals = {
    operations: operations.length,
    effect: { read: 0, write: 0 },
    class: zero(CLASSES),
    mechanism: zero(MECHANISMS),
    diagnostics: zero(SEVERITIES),
  };
  for (const o of operations) {
    totals.effect[o.effect]++;
    totals.class[o.class]++;
    totals.mechanism[o.mechanism]++;
  }
  for (const d of diagnostics) totals.diagnostics[d.severity]++;
  if (sources) totals.sources = sourceTotals(sources, operations, diagnostics);
  return { operations, diagnostics, totals };
}

/** `header Idempotency-Key (≤ 255)` / `—`. */
export function carrierText(c: Carrier | null): string {
  if (c === null) return '—';
  const max = c.maxLength !== undefined ? ` (≤ ${c.maxLength})` : '';
  return `${c.in} ${c.name}${max}`;
}

/** `24 h`, `31 d`, `300 s`, `—`. */
export function ttlText(seconds: number | undefined): string {
  if (seconds === undefined) return '—';
  if (seconds % 86400 === 0 && seconds >= 86400 * 2) return `${seconds / 86400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** `native-key (OP-1)`: the mechanism's name with its SOP number, then the tool-boundary dedup if any. */
export function mechanismText(o: AuditOperation): string {
  const m = mechanismLabel(o.mechanism);
  return o.toolBoundary ? `${m} + ${o.toolBoundary} (OP-7)` : m;
}

export function locationText(d: AuditDiagnostic): string {
  if (d.line !== null) return d.col !== null ? `${d.line}:${d.col}` : `${d.line}`;
  return d.pointer ?? '';
}
