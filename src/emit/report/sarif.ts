/**
 * SARIF 2.1.0 (OASIS): one run, `tool.driver.rules` with metadata for every rule id that occurs
 * (classification rules from classify/rules.ts, plus any loader/IR diagnostic code), results with
 * a physical location (relative URI, region when line/col are known) and the JSON pointer as a
 * logical location.
 */
import { RULE_BY_ID } from './rule-index.js';
import { jsonText } from '../../escape/index.js';
import { CONFIG_CODES, IR_CODES, LOAD_CODES, type CodeInfo } from '../../diagnostics/codes.js';
import type { Severity } from '../../diagnostics/diagnostic.js';
import type { AuditDiagnostic, AuditModel } from './model.js';

export interface SarifOptions {
  /** `tool.driver.version`: the idemgen package version (the CLI reads package.json). */
  toolVersion?: string;
  /** `tool.driver.informationUri`: omitted unless known. */
  informationUri?: string;
}

const STAGE_CODES: ReadonlyMap<string, CodeInfo> = new Map<string, CodeInfo>([
  ...Object.entries(LOAD_CODES),
  ...Object.entries(IR_CODES),
  ...Object.entries(CONFIG_CODES),
]);

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A relative URI reference (SARIF §3.10.2): POSIX separators, each segment percent-encoded. */
function fileUri(file: string): string {
  const posix = file.replace(/\\/g, '/');
  const encoded = posix
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  return posix.startsWith('/') ? `file://${encoded}` : encoded;
}

function sentence(s: string): string {
  const t = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Every rule carries short and full descriptions and help (GitHub code scanning shows all three). */
function ruleDescriptor(
  id: string,
  level: 'error' | 'warning' | 'note',
  example: AuditDiagnostic,
): Record<string, unknown> {
  const meta = RULE_BY_ID.get(id);
  if (meta) {
    return {
      id,
      name: id,
      shortDescription: { text: meta.title },
      fullDescription: { text: meta.description },
      help: { text: `${meta.description} Source: ${meta.source}.` },
      defaultConfiguration: { level: LEVEL[meta.severity] },
      properties: { source: meta.source },
    };
  }
  const stage = STAGE_CODES.get(id);
  const title = sentence(id.replace(/_/g, ' '));
  const full = stage ? sentence(stage.summary) : sentence(example.message);
  const help =
    example.hint !== undefined
      ? `${full} ${sentence(example.hint)}`
      : `${full} Each result names the file and JSON pointer to fix.`;
  return {
    id,
    name: id,
    shortDescription: { text: title },
    fullDescription: { text: full },
    help: { text: help },
    defaultConfiguration: { level: stage ? LEVEL[stage.severity] : level },
  };
}

function location(d: AuditDiagnostic): Record<string, unknown>[] {
  if (d.file === null) return [];
  const physical: Record<string, unknown> = { artifactLocation: { uri: fileUri(d.file) } };
  if (d.line !== null && d.line >= 1) {
    physical.region = d.col !== null && d.col >= 1 ? { startLine: d.line, startColumn: d.col } : { startLine: d.line };
  }
  const loc: Record<string, unknown> = { physicalLocation: physical };
  if (d.pointer !== null)
    loc.logicalLocations = [{ fullyQualifiedName: d.pointer === '' ? '/' : d.pointer, kind: 'element' }];
  return [loc];
}

export function renderSarif(model: AuditModel, opts: SarifOptions = {}): string {
  const ids = [...new Set(model.diagnostics.map((d) => d.code))].sort();
  const index = new Map(ids.map((id, i) => [id, i]));
  const rules = ids.map((id) => {
    const first = model.diagnostics.find((d) => d.code === id)!;
    return ruleDescriptor(id, LEVEL[first.severity], first);
  });
  const driver: Record<string, unknown> = { name: 'idemgen', version: opts.toolVersion ?? '0.0.0' };
  if (opts.informationUri !== undefined) driver.informationUri = opts.informationUri;
  driver.rules = rules;
  const results = model.diagnostics.map((d) => {
    const r: Record<string, unknown> = {
      ruleId: d.code,
      ruleIndex: index.get(d.code),
      level: LEVEL[d.severity],
      message: { text: d.hint ? `${d.message} (${d.hint})` : d.message },
    };
    const locations = location(d);
    if (locations.length > 0) r.locations = locations;
    return r;
  });
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver },
        columnKind: 'unicodeCodePoints',
        results,
      },
    ],
  };
  return `${jsonText(log, 2)}\n`;
}
