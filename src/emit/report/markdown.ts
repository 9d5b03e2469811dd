/**
 * Markdown audit from `templates/report/audit.md.hbs`: totals per class and mechanism, then one
 * section per file with the per-operation table (class, mechanism, carrier, key strategy, TTL,
 * reasons) and its findings.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { ALL_RULES } from './rule-index.js';
import { carrierText, CLASSES, SOURCE_KINDS, locationText, MECHANISMS, mechanismText, ttlText, type AuditModel, type AuditOperation } from './model.js';

/** `src/emit/report/` (tsx, vitest) and `dist/emit/report/` (built) are both three levels deep. */
const TEMPLATE = new URL('../../../templates/report/audit.md.hbs', import.meta.url);

// An isolated instance; `noEscape` because cells are escaped for Markdown below, not for HTML.
const hbs = Handlebars.create();
let compiled: Handlebars.TemplateDelegate | undefined;

/** Table cells: no pipes, no line breaks. */
export function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function reasonsText(o: AuditOperation): string {
  return [...o.effectReasons, ...o.reasons].map((r) => `\`${r.rule}\`: ${r.detail}`).join('<br>');
}

function operationRow(o: AuditOperation): Record<string, string> {
  return {
    key: cell(o.key.replace(/`/g, "'")),
    effect: o.effect,
    class: o.class,
    mechanism: cell(mechanismText(o)),
    carrier: cell(carrierText(o.carrier)),
    keyStrategy: o.keyStrategy ?? '—',
    ttl: ttlText(o.ttlSeconds),
    reasons: cell(reasonsText(o)),
  };
}

export function renderMarkdown(model: AuditModel): string {
  compiled ??= hbs.compile(readFileSync(TEMPLATE, 'utf8'), { noEscape: true, strict: false });
  const files = [...new Set([...model.operations.map((o) => o.source.file), ...model.diagnostics.map((d) => d.file ?? '')])].sort();
  const used = new Set(model.diagnostics.map((d) => d.code));
  const context = {
    totals: model.totals,
    sourceTotals: model.totals.sources
      ? SOURCE_KINDS.filter((k) => model.totals.sources![k].sources > 0).map((k) => ({ kind: k, ...model.totals.sources![k] }))
      : [],
    classTotals: CLASSES.map((name) => ({ name, count: model.totals.class[name] })),
    mechanismTotals: MECHANISMS.map((name) => ({ name, count: model.totals.mechanism[name] })),
    files: files.map((file) => ({
      file: file === '' ? '(no file)' : file,
      operations: model.operations.filter((o) => o.source.file === file).map(operationRow),
      diagnostics: model.diagnostics
        .filter((d) => (d.file ?? '') === file)
        .map((d) => ({ location: cell(d.line !== null && d.pointer ? `${locationText(d)} (${d.pointer})` : locationText(d)), severity: d.severity, code: d.code, message: cell(d.message) })),
    })),
    rules: ALL_RULES.filter((r) => used.has(r.id)).map((r) => ({ ...r, description: cell(r.description) })),
  };
  return compiled(context).replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n').replace(/\n*$/, '\n');
}
