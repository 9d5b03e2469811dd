/**
 * `--baseline`: the audit to compare with, from a previous `audit --format json` (or `report/audit.json`,
 * the compact form `generate` writes) or from a spec, which is classified with the same config.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyze } from '../../pipeline.js';
import type { ResolvedConfig } from '../../config/types.js';
import { ConfigError, diagnostic, InputError } from '../../diagnostics/diagnostic.js';
import { buildAuditModel, expandAuditJson, type AuditJson, type AuditModel } from '../../emit/report/index.js';
import { CHANGE_KINDS, parseChangeRules, type ChangeKind } from '../../emit/report/changes.js';

function auditDocument(text: string): AuditModel | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null) return undefined;
  const o = doc as Record<string, unknown>;
  if (!Array.isArray(o.operations) || typeof o.totals !== 'object' || !Array.isArray(o.diagnostics)) return undefined;
  // report/audit.json names files by index and shares texts; `audit --format json` is the model itself.
  return Array.isArray(o.files) && Array.isArray(o.texts)
    ? expandAuditJson(doc as AuditJson)
    : (doc as unknown as AuditModel);
}

export async function loadBaseline(file: string, config: ResolvedConfig, cwd: string): Promise<AuditModel> {
  const path = resolve(cwd, file);
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) {
    throw new ConfigError([
      diagnostic('baseline_not_found', 'error', `--baseline ${file}: no such file (an audit JSON or a spec)`, {
        file,
      }),
    ]);
  }
  const fromJson = /\.json$/i.test(path) ? auditDocument(readFileSync(path, 'utf8')) : undefined;
  if (fromJson) return fromJson;
  // The baseline is another version of the inputs: the run's own analysis already checked the overrides.
  const analysis = await analyze([path], { ...config, inputs: [path] }, cwd, [], { checkOverrides: false });
  const errors = analysis.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new InputError(errors);
  return buildAuditModel(analysis.plan);
}

/** `--fail-on-change fail-closed,lost-key` → the kinds; an unknown word is a usage error naming the known ones. */
export function changeRules(text: string | undefined): ChangeKind[] {
  if (text === undefined) return [];
  const { kinds, unknown } = parseChangeRules(text);
  if (unknown.length > 0) {
    throw new ConfigError([
      diagnostic(
        'unknown_change_rule',
        'error',
        `--fail-on-change: unknown ${unknown.map((w) => JSON.stringify(w)).join(', ')}; use any, none or a comma-separated list of ${CHANGE_KINDS.join(', ')}`,
      ),
    ]);
  }
  return kinds;
}
