/**
 * SARIF 2.1.0 (OASIS): one run, `tool.driver.rules` with metadata for every rule id that occurs
 * (classification rules from classify/rules.ts, plus any loader/IR diagnostic code), results with
 * a physical location (relative URI, region when line/col are known) and the JSON pointer as a
 * logical location.
 */
import { RULE_BY_ID } from '../../classify/rules.js';
import type { Severity } from '../../diagnostics/diagnostic.js';
import type { AuditDiagnostic, AuditModel } from './model.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A relative URI reference (SARIF §3.10.2): POSIX separators, each segment percent-encoded. */
export function fileUri(file: string): string {
  const posix = file.replace(/\\/g, '/');
  const encoded = posix.split('/').map((s) => encodeURIComponent(s)).join('/');
  return posix.startsWith('/') ? `file://${encoded}` : encoded;
}

function ruleDescriptor(id: string, level: 'error' | 'warning' | 'note'): Record<string, unknown> {
  const meta = RULE_BY_ID.get(id);
  if (!meta) {
    return { id, name: id, shortDescription: { text: id.replace(/_/g, ' ') }, defaultConfiguration: { level } };
  }
  return {
    id,
    name: id,
    shortDescription: { text: meta.title },
    fullDescription: { text: meta.description },
    help: { text: `${meta.description} (${meta.source})` },
    defaultConfiguration: { level: LEVEL[meta.severity] },
    properties: { source: meta.source },
  };
}

function location(d: AuditDiagnostic): Record<string, unknown>[] {
  if (d.file === null) return [];
  const physical: Record<string, unknown> = { artifactLocation: { uri: fileUri(d.file) } };
  if (d.line !== null && d.line >= 1) {
    physical.region = d.col !== null && d.col >= 1 ? { startLine: d.line, startColumn: d.col } : { startLine: d.line };
  }
  const loc: Record<string, unknown> = { physicalLocation: physical };
  if (d.pointer !== null) loc.logicalLocations = [{ fullyQualifiedName: d.pointer === '' ? '/' : d.pointer, kind: 'element' }];
  return [loc];
}

export function renderSarif(model: AuditModel): string {
  const ids = [...new Set(model.diagnostics.map((d) => d.code))].sort();
  const index = new Map(ids.map((id, i) => [id, i]));
  const rules = ids.map((id) => ruleDescriptor(id, LEVEL[model.diagnostics.find((d) => d.code === id)!.severity]));
  const results = model.diagnostics.map((d) => {
    const r: Record<string, unknown> = { ruleId: d.code, ruleIndex: index.get(d.code), level: LEVEL[d.severity], message: { text: d.hint ? `${d.message} (${d.hint})` : d.message } };
    const locations = location(d);
    if (locations.length > 0) r.locations = locations;
    return r;
  });
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'idemgen', rules } },
        columnKind: 'unicodeCodePoints',
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
