/**
 * The audit report: renderers are plain functions in a map (knip style), all drawn from one
 * data model (model.ts). `emitReport` writes report/audit.md and report/audit.json.
 */
import type { Plan } from '../../classify/types.js';
import { jsonText } from '../../escape/index.js';
import type { Emitter } from '../types.js';
import type { ArtifactEmit } from '../artifact.js';
import { collectFiles } from '../memory-sink.js';
import { planAnchors } from '../audit-anchors.js';
import { renderMarkdown } from './markdown.js';
import { buildAuditModel, type AuditModel, type SourceKind } from './model.js';
import { renderSarif, type SarifOptions } from './sarif.js';
import { renderText, type TextOptions } from './text.js';
import { toAuditJson } from './json.js';
import { renderHtml, opId, type HtmlOptions } from './html.js';
import type { AuditChanges } from './changes.js';
import { renderChangesMarkdown, renderChangesText } from './changes-render.js';

export { expandAuditJson, type AuditJson } from './json.js';

export type AuditFormat = 'text' | 'markdown' | 'json' | 'sarif' | 'html';
/**
 * `color`, `verbose` (text), `toolVersion`, `informationUri` (SARIF). Renderers stay pure: the CLI
 * reads the package version and passes it in.
 */
export type RenderOptions = TextOptions &
  SarifOptions &
  Omit<HtmlOptions, 'tags'> & {
    sources?: ReadonlyMap<string, SourceKind>;
    /** `--baseline`: what changed since then (text, Markdown, JSON and HTML show it). */
    changes?: AuditChanges;
  };

export { buildAuditModel, toDiagnostic } from './model.js';
export type { AuditModel, AuditOperation, AuditDiagnostic, AuditTotals, SourceKind, SourceTotal } from './model.js';

/** `idemgen audit --format json`: the whole model, indented (the stable shape scripts read), and `changes` with a baseline. */
export function renderJson(model: AuditModel, opts: RenderOptions = {}): string {
  return `${jsonText(opts.changes ? { ...model, changes: opts.changes } : model, 2)}\n`;
}

/**
 * `report/audit.json`, a line at a time: the model without what repeats or follows from other fields (json.ts;
 * Graph 13.2 → 5.2 MB), one operation and one diagnostic per line, so it still diffs per operation.
 */
function writeJsonFile(model: AuditModel, write: (chunk: string) => void): void {
  write('{\n');
  Object.entries(toAuditJson(model)).forEach(([key, value], i) => {
    const name = jsonText(key);
    if (i > 0) write(',\n');
    if (!Array.isArray(value) || value.length === 0) {
      write(`  ${name}: ${jsonText(value)}`);
      return;
    }
    write(`  ${name}: [\n`);
    for (const [j, item] of value.entries()) write(`${j > 0 ? ',\n' : ''}    ${jsonText(item)}`);
    write('\n  ]');
  });
  write('\n}\n');
}

export const RENDERERS: Readonly<Record<AuditFormat, (model: AuditModel, opts: RenderOptions) => string>> = {
  text: (model, opts) => {
    const text = renderText(model, opts);
    if (!opts.changes) return text;
    return `${renderChangesText(opts.changes, opts).join('\n')}\n\n${text}`;
  },
  markdown: (model, opts) => {
    const md = renderMarkdown(model);
    if (!opts.changes) return md;
    // The changes right under the title: in a PR comment they are what the reader came for.
    const cut = md.indexOf('\n## ');
    return cut === -1
      ? `${md}\n${renderChangesMarkdown(opts.changes)}`
      : `${md.slice(0, cut)}\n${renderChangesMarkdown(opts.changes)}${md.slice(cut)}`;
  },
  json: renderJson,
  sarif: renderSarif,
  html: renderHtml,
};

/** Operation tags by file and key (the HTML report's tag filter). */
function operationTags(plan: Plan): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const api of plan.apis)
    for (const e of api.entries) {
      const op = e.operation;
      if (op.kind === 'http' && op.tags.length > 0) out.set(opId(op.source.file, op.key), op.tags);
    }
  return out;
}

export function renderAudit(plan: Plan, format: AuditFormat, opts: RenderOptions = {}): string {
  const render = RENDERERS[format];
  if (!render) throw new Error(`unknown audit format ${String(format)}`);
  const model = buildAuditModel(plan, opts.sources);
  return format === 'html' ? renderHtml(model, { ...opts, tags: operationTags(plan) }) : render(model, opts);
}

/** `--fail-on`: error → any error; warning → any error or warning; info → any finding; none → never. */
export function auditFailed(plan: Plan, failOn: 'error' | 'warning' | 'info' | 'none'): boolean {
  switch (failOn) {
    case 'none':
      return false;
    case 'error':
      return plan.diagnostics.some((d) => d.severity === 'error');
    case 'warning':
      return plan.diagnostics.some((d) => d.severity === 'error' || d.severity === 'warning');
    case 'info':
      return plan.diagnostics.length > 0;
    default: {
      const never: never = failOn;
      throw new Error(`unknown --fail-on ${String(never)}`);
    }
  }
}

/** report/audit.md and report/audit.json into a sink (audit.json line by line: Graph's is 5.5 MB). */
export const streamReport: ArtifactEmit = (plan, _config, sink) => {
  const model = buildAuditModel(plan);
  const md = sink.file('report/audit.md');
  md.write(renderMarkdown(model, planAnchors(plan)));
  md.end();
  const json = sink.file('report/audit.json');
  writeJsonFile(model, (chunk) => json.write(chunk));
  json.end();
  return [];
};

/** The same files, whole (the library's and the tests' form). */
export const emitReport: Emitter = (plan, config) => {
  const { files, diagnostics } = collectFiles(streamReport, plan, config);
  // audit.md first, as this emitter has always listed them (not in path order).
  const order = ['report/audit.md', 'report/audit.json'];
  return { files: files.sort((a, b) => order.indexOf(a.path) - order.indexOf(b.path)), diagnostics };
};
