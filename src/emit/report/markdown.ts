/**
 * Markdown audit from `templates/report/audit.md.hbs`, grouped like the text audit so a reviewer can scan
 * it: totals, a per-rule summary (found vs. default severity), then per file its errors and warnings one by
 * one and its notes one row per rule (places folded), its writes with the rows that share every column
 * collapsed into one (operations folded below, each keeping its anchor), its reads folded; then the words.
 */
import { template } from '../templates.js';
import { ALL_RULES } from './rule-index.js';
import { severityText } from '../../classify/rules.js';
import { onlyMethodReason } from './json.js';
import { anchorKey, operationAnchors } from '../audit-anchors.js';
import { htmlText, mdCode, mdText } from '../../escape/index.js';
import { mechanismLabel } from '../../config/vocabulary.js';
import type { Severity } from '../../diagnostics/diagnostic.js';
import { CARRIER_LEGEND, CLASS_LEGEND, KEY_STRATEGY_LEGEND, MECHANISM_LEGEND } from './legend.js';
import { groupOperations } from './text-collapse.js';
import {
  carrierText,
  CLASSES,
  SOURCE_KINDS,
  locationText,
  MECHANISMS,
  mechanismText,
  ttlText,
  type AuditDiagnostic,
  type AuditModel,
  type AuditOperation,
} from './model.js';

/**
 * HTML the report writes itself: a line break between reasons in a table cell, and each row's anchor. A rule
 * whose detail is the same on every write (`shared`) is its bare name; the method's own reason is left out.
 */
function reasonsText(o: AuditOperation, shared: Record<string, string>): string {
  const effect = onlyMethodReason(o) ? [] : o.effectReasons;
  return [...effect, ...o.reasons]
    .map((r) => (shared[r.rule] !== undefined ? mdCode(r.rule) : `${mdCode(r.rule)}: ${mdText(r.detail)}`))
    .join('<br>');
}

/** Writes that need attention first: fail-closed (irreversible), then the rest by class. */
const WRITE_ORDER: readonly string[] = [
  'irreversible',
  'compensatable',
  'owned-store',
  'native-key',
  'method-idempotent',
];
const writeRank = (o: AuditOperation): number => {
  const i = WRITE_ORDER.indexOf(o.class);
  return i === -1 ? WRITE_ORDER.length : i;
};

/** `36:7 (`/paths/~1orders/post`)`: the pointer as code, so `~` and `_` need no escapes. */
function locationCell(d: AuditDiagnostic): string {
  const line = d.line !== null ? mdText(locationText(d)) : '';
  const pointer = d.pointer ? mdCode(d.pointer) : '';
  return line !== '' && pointer !== '' ? `${line} (${pointer})` : line || pointer;
}

function diagnosticRow(d: AuditDiagnostic, message: string): Record<string, string> {
  return { location: locationCell(d), severity: mdText(d.severity), code: mdCode(d.code), message };
}

/** `<a id="post-payouts"></a>`: the row a generated client method links to (anchors are `[a-z0-9-]`). */
function operationRow(
  o: AuditOperation,
  anchors: ReadonlyMap<string, string>,
  shared: Record<string, string>,
): Record<string, string> {
  const anchor = anchors.get(anchorKey(o.source.file, o.key));
  return {
    key: `${anchor !== undefined ? `<a id="${anchor}"></a>` : ''}${mdCode(o.key)}`,
    class: mdText(o.class),
    mechanism: mdText(mechanismText(o)),
    carrier: mdText(carrierText(o.carrier)),
    keyStrategy: mdText(o.keyStrategy ?? '—'),
    ttl: mdText(ttlText(o.ttlSeconds)),
    reasons: reasonsText(o, shared),
  };
}

/** The reads of one file: their keys in one paragraph (collapsed in the report), each with the rule that made it a read unless the method did. */
function readList(reads: AuditOperation[]): string {
  return reads
    .map((o) => {
      const why = onlyMethodReason(o) ? '' : ` (${o.effectReasons.map((r) => mdCode(r.rule)).join(', ')})`;
      return `${mdCode(o.key)}${why}`;
    })
    .join(' · ');
}

/** Groups larger than this are one row (text-collapse.ts collapses at the same size). */
const COLLAPSE_OVER = 3;

const NOTE_WORD: Record<Severity, [string, string]> = {
  error: ['error', 'errors'],
  warning: ['warning', 'warnings'],
  info: ['note', 'notes'],
};

/** `1 warning, 2 notes`: the severities a rule's findings have in this report. */
function foundText(counts: Record<Severity, number>): string {
  return (['error', 'warning', 'info'] as const)
    .filter((sv) => counts[sv] > 0)
    .map((sv) => `${counts[sv]} ${NOTE_WORD[sv][counts[sv] === 1 ? 0 : 1]}`)
    .join(', ');
}

/** The writes of one file as rows: a group of more than COLLAPSE_OVER becomes one counted row, listed below. */
function writeRows(
  writes: AuditOperation[],
  anchors: ReadonlyMap<string, string>,
  shared: Record<string, string>,
): { rows: Record<string, string>[]; groups: { count: number; label: string; keys: string }[] } {
  const rows: Record<string, string>[] = [];
  const groups: { count: number; label: string; keys: string }[] = [];
  for (const g of groupOperations(writes)) {
    if (g.ops.length <= COLLAPSE_OVER) {
      rows.push(...g.ops.map((o) => operationRow(o, anchors, shared)));
      continue;
    }
    const first = g.ops[0]!;
    const row = operationRow(first, anchors, shared);
    const rules = [...new Set(g.ops.flatMap((o) => reasonRules(o)))];
    const label = `${mechanismText(first)} writes (${first.class}, ${carrierText(first.carrier)})`;
    rows.push({
      ...row,
      key: `${g.ops.length} operations, e.g. ${mdCode(first.key)} (listed below)`,
      reasons: rules.map((r) => (shared[r] !== undefined ? mdCode(r) : `${mdCode(r)} (per operation)`)).join('<br>'),
    });
    groups.push({
      count: g.ops.length,
      // An HTML block (`<details><summary>…`): HTML text, no Markdown inside.
      label: htmlText(label),
      keys: g.ops
        .map((o) => {
          const anchor = anchors.get(anchorKey(o.source.file, o.key));
          return `${anchor !== undefined ? `<a id="${anchor}"></a>` : ''}${mdCode(o.key)}`;
        })
        .join(' · '),
    });
  }
  return { rows, groups };
}

/** The rules of an operation's reasons, the HTTP method's own left out. */
function reasonRules(o: AuditOperation): string[] {
  return [...(onlyMethodReason(o) ? [] : o.effectReasons), ...o.reasons].map((r) => r.rule);
}

/** `anchors`: the plan's (`planAnchors`) when the caller has it, so they are made once per run. */
export function renderMarkdown(
  model: AuditModel,
  anchors: ReadonlyMap<string, string> = operationAnchors(
    model.operations.map((o) => ({ file: o.source.file, key: o.key })),
  ),
): string {
  const files = [
    ...new Set([...model.operations.map((o) => o.source.file), ...model.diagnostics.map((d) => d.file ?? '')]),
  ].sort();
  const used = new Set(model.diagnostics.map((d) => d.code));
  const shared = sharedDetails(model);
  const context = {
    totals: model.totals,
    sourceTotals: model.totals.sources
      ? SOURCE_KINDS.filter((k) => model.totals.sources![k].sources > 0).map((k) => ({
          kind: k,
          ...model.totals.sources![k],
        }))
      : [],
    classTotals: CLASSES.map((name) => ({ name: mdText(name), count: model.totals.class[name] })),
    mechanismTotals: MECHANISMS.map((name) => ({
      name: mdText(mechanismLabel(name)),
      count: model.totals.mechanism[name],
    })),
    files: files.map((file) => fileSection(model, file, anchors, shared)),
    failClosed: model.totals.mechanism['fail-closed'],
    rules: [...used].sort().map((id) => ruleRow(model, id)),
    legend: legendRows(),
  };
  return template('report/audit.md.hbs')(context)
    .replace(/\r\n?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n*$/, '\n');
}

/** A rule's detail is said once when it is the same on two or more write rows: rule → that detail. */
function sharedDetails(model: AuditModel): Record<string, string> {
  const writeReasons = model.operations
    .filter((o) => o.effect === 'write')
    .flatMap((o) => [...o.effectReasons, ...o.reasons]);
  const uses = new Map<string, number>();
  for (const r of writeReasons) uses.set(r.rule, (uses.get(r.rule) ?? 0) + 1);
  const details = new Map<string, string | null>();
  for (const r of writeReasons) {
    const prev = details.get(r.rule);
    if (prev === undefined) details.set(r.rule, r.detail);
    else if (prev !== null && prev !== r.detail) details.set(r.rule, null);
  }
  const shared: Record<string, string> = {};
  for (const [rule, detail] of [...details].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    if (detail !== null && (uses.get(rule) ?? 0) >= 2) shared[rule] = detail;
  return shared;
}

/** One source file's section: its write rows and groups, reads, diagnostics (repeated notes folded). */
function fileSection(
  model: AuditModel,
  file: string,
  anchors: ReadonlyMap<string, string>,
  shared: Record<string, string>,
) {
  const operations = model.operations.filter((o) => o.source.file === file);
  // A stable sort: writes keep key order within a class.
  const writes = operations.filter((o) => o.effect === 'write').sort((a, b) => writeRank(a) - writeRank(b));
  const reads = operations.filter((o) => o.effect !== 'write');
  const rules = new Set(writes.flatMap((o) => o.reasons.map((r) => r.rule)));
  for (const o of writes) if (!onlyMethodReason(o)) for (const r of o.effectReasons) rules.add(r.rule);
  const grouped = writeRows(writes, anchors, shared);
  const fileDiagnostics = model.diagnostics.filter((d) => (d.file ?? '') === file);
  const noteCount = new Map<string, number>();
  for (const d of fileDiagnostics) if (d.severity === 'info') noteCount.set(d.code, (noteCount.get(d.code) ?? 0) + 1);
  const folded = (d: AuditDiagnostic): boolean => d.severity === 'info' && (noteCount.get(d.code) ?? 0) > 1;
  const seen = new Set<string>();
  const shown: Record<string, string>[] = [];
  for (const d of fileDiagnostics) {
    if (!folded(d)) {
      shown.push(diagnosticRow(d, mdText(d.message)));
    } else if (!seen.has(d.code)) {
      seen.add(d.code);
      shown.push({
        ...diagnosticRow(d, `${noteCount.get(d.code)} notes, e.g. ${mdText(d.message)}`),
        location: `${noteCount.get(d.code)} places (below)`,
      });
    }
  }
  return {
    file: mdText(file === '' ? '(no file)' : file),
    operations: operations.length > 0,
    writes: grouped.rows,
    writeGroups: grouped.groups,
    sharedReasons: Object.entries(shared)
      .filter(([rule]) => rules.has(rule))
      .map(([rule, detail]) => ({ rule: mdCode(rule), detail: mdText(detail) })),
    reads,
    readList: readList(reads),
    diagnostics: shown,
    noteGroups: [...seen].map((code) => ({
      code: `<code>${htmlText(code)}</code>`,
      count: noteCount.get(code),
      places: fileDiagnostics
        .filter((d) => d.code === code && folded(d))
        .map((d) => (d.pointer ? mdCode(d.pointer) : mdText(locationText(d))))
        .join(' · '),
    })),
  };
}

/** One rule of the report's rule table: how often it was found, its severity, description and source. */
function ruleRow(model: AuditModel, id: string): Record<string, string> {
  const r = ALL_RULES.find((x) => x.id === id);
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of model.diagnostics) if (d.code === id) counts[d.severity]++;
  return {
    id: mdCode(id),
    found: mdText(foundText(counts)),
    severity: mdText(r ? severityText(r) : 'as found (reading or generating, not a classification rule)'),
    description: mdText(r?.description ?? ''),
    source: mdText(r?.source ?? ''),
  };
}

/** The legend: mechanisms, classes, key strategies and carriers. */
function legendRows(): { term: string; text: string }[] {
  return [
    ...Object.values(MECHANISM_LEGEND),
    ...Object.values(CLASS_LEGEND).map((e) => ({ ...e, term: `${e.term} (class)` })),
    ...Object.values(KEY_STRATEGY_LEGEND).map((e) => ({ ...e, term: `${e.term} (key strategy)` })),
    ...CARRIER_LEGEND,
  ].map((e) => ({
    term: `${mdCode(e.term)}${e.alias ? ` (${mdText(e.alias)})` : ''}`,
    text: mdText(e.text),
  }));
}
