/**
 * The audit report: renderers are plain functions in a map (knip style), all drawn from one
 * data model (model.ts). `emitReport` writes report/audit.md and report/audit.json.
 */
import type { Plan } from '../../classify/types.js';
import { jsonText } from '../../escape/index.js';
import type { Emitter } from '../types.js';
import { renderMarkdown } from './markdown.js';
import { buildAuditModel, type AuditModel, type SourceKind } from './model.js';
import { renderSarif, type SarifOptions } from './sarif.js';
import { renderText, type TextOptions } from './text.js';
import { toAuditJson } from './json.js';

export { expandAuditJson, type AuditJson } from './json.js';

export type AuditFormat = 'text' | 'markdown' | 'json' | 'sarif';
/**
 * `color`, `verbose` (text), `toolVersion`, `informationUri` (SARIF). Renderers stay pure: the CLI
 * reads the package version and passes it in.
 */
export type RenderOptions = TextOptions & SarifOptions & { sources?: ReadonlyMap<string, SourceKind> };

export { buildAuditModel, toDiagnostic } from './model.js';
export type { AuditModel, AuditOperation, AuditDiagnostic, AuditTotals, SourceKind, SourceTotal } from './model.js';

/** `idemgen audit --format json`: the whole model, indented (the stable shape scripts read). */
export function renderJson(model: AuditModel): string {
  return `${jsonText(model, 2)}\n`;
}

/**
 * `report/audit.json`: the model without what repeats or follows from other fields (json.ts; Graph 13.2 →
 * 5.2 MB), one operation and one diagnostic per line, so it still diffs per operation.
 */
function renderJsonFile(model: AuditModel): string {
  const members = Object.entries(toAuditJson(model)).map(([key, value]) => {
    const name = jsonText(key);
    if (!Array.isArray(value) || value.length === 0) return `  ${name}: ${jsonText(value)}`;
    return `  ${name}: [\n${value.map((item) => `    ${jsonText(item)}`).join(',\n')}\n  ]`;
  });
  return `{\n${members.join(',\n')}\n}\n`;
}

export const RENDERERS: Readonly<Record<AuditFormat, (model: AuditModel, opts: RenderOptions) => string>> = {
  text: renderText,
  markdown: renderMarkdown,
  json: renderJson,
  sarif: renderSarif,
};

export function renderAudit(plan: Plan, format: AuditFormat, opts: RenderOptions = {}): string {
  const render = RENDERERS[format];
  if (!render) throw new Error(`unknown audit format ${String(format)}`);
  return render(buildAuditModel(plan, opts.sources), opts);
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

export const emitReport: Emitter = (plan) => {
  const model = buildAuditModel(plan);
  return {
    files: [
      { path: 'report/audit.md', contents: renderMarkdown(model) },
      { path: 'report/audit.json', contents: renderJsonFile(model) },
    ],
    diagnostics: [],
  };
};
