/**
 * Markdown audit from `templates/report/audit.md.hbs`: totals per class and mechanism, then one
 * section per file with the per-operation table (class, mechanism, carrier, key strategy, TTL,
 * reasons) and its findings.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { ALL_RULES } from './rule-index.js';
import { anchorKey, operationAnchors } from '../audit-anchors.js';
import { mdCode, mdText } from '../../escape/index.js';
import { mechanismLabel } from '../../config/vocabulary.js';
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

/** `src/emit/report/` (tsx, vitest) and `dist/emit/report/` (built) are both three levels deep. */
const TEMPLATE = new URL('../../../templates/report/audit.md.hbs', import.meta.url);

// An isolated instance; `noEscape` because every value is escaped for Markdown below (mdText/mdCode from
// src/escape), which also turns `<` and `&` into entities; Handlebars' HTML escaping would double that.
const hbs = Handlebars.create();
let compiled: Handlebars.TemplateDelegate | undefined;

/** HTML the report writes itself: a line break between reasons in a table cell, and each row's anchor. */
function reasonsText(o: AuditOperation): string {
  return [...o.effectReasons, ...o.reasons].map((r) => `${mdCode(r.rule)}: ${mdText(r.detail)}`).join('<br>');
}

/** `36:7 (`/paths/~1orders/post`)`: the pointer as code, so `~` and `_` need no escapes. */
function locationCell(d: AuditDiagnostic): string {
  const line = d.line !== null ? mdText(locationText(d)) : '';
  const pointer = d.pointer ? mdCode(d.pointer) : '';
  return line !== '' && pointer !== '' ? `${line} (${pointer})` : line || pointer;
}

/** `<a id="post-payouts"></a>`: the row a generated client method links to (anchors are `[a-z0-9-]`). */
function operationRow(o: AuditOperation, anchors: Map<string, string>): Record<string, string> {
  const anchor = anchors.get(anchorKey(o.source.file, o.key));
  return {
    key: `${anchor !== undefined ? `<a id="${anchor}"></a>` : ''}${mdCode(o.key)}`,
    effect: mdText(o.effect),
    class: mdText(o.class),
    mechanism: mdText(mechanismText(o)),
    carrier: mdText(carrierText(o.carrier)),
    keyStrategy: mdText(o.keyStrategy ?? '—'),
    ttl: mdText(ttlText(o.ttlSeconds)),
    reasons: reasonsText(o),
  };
}

export function renderMarkdown(model: AuditModel): string {
  compiled ??= hbs.compile(readFileSync(TEMPLATE, 'utf8'), { noEscape: true, strict: false });
  const files = [
    ...new Set([...model.operations.map((o) => o.source.file), ...model.diagnostics.map((d) => d.file ?? '')]),
  ].sort();
  const used = new Set(model.diagnostics.map((d) => d.code));
  const anchors = operationAnchors(model.operations.map((o) => ({ file: o.source.file, key: o.key })));
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
    files: files.map((file) => ({
      file: mdText(file === '' ? '(no file)' : file),
      operations: model.operations.filter((o) => o.source.file === file).map((o) => operationRow(o, anchors)),
      diagnostics: model.diagnostics
        .filter((d) => (d.file ?? '') === file)
        .map((d) => ({
          location: locationCell(d),
          severity: mdText(d.severity),
          code: mdCode(d.code),
          message: mdText(d.message),
        })),
    })),
    rules: ALL_RULES.filter((r) => used.has(r.id)).map((r) => ({
      id: mdCode(r.id),
      severity: mdText(r.severity),
      description: mdText(r.description),
      source: mdText(r.source),
    })),
  };
  return compiled(context)
    .replace(/\r\n?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n*$/, '\n');
}
