/**
 * Audit rules: stable ids (the Diagnostic `code`), default severity, and the text the reports
 * (SARIF `tool.driver.rules`, Markdown) show. Severities are overridable by `config.severities`.
 */
import { diagnostic, type Diagnostic, type Severity } from '../diagnostics/diagnostic.js';
import type { ResolvedConfig } from '../config/types.js';

export interface RuleMeta {
  id: string;
  severity: Severity;
  title: string;
  description: string;
  /** SOP / RFC section the rule enforces. */
  source: string;
}

export const RULES: readonly RuleMeta[] = [
  {
    id: 'write_without_key_mechanism',
    severity: 'warning',
    title: 'Write with no idempotency mechanism downstream',
    description:
      'The operation writes, the API accepts no idempotency key, the store is not ours and no inverse is known, so it is fail-closed: a duplicate is blocked, and an ambiguous outcome is never retried automatically and must be reconciled by hand.',
    source: 'SOP §3 Step 1 (irreversible: block the second call), §6',
  },
  {
    id: 'tool_missing_required_key',
    severity: 'warning',
    title: 'Side-effecting tool without a required idempotency_key',
    description:
      'A side-effecting tool must require an idempotency_key argument so transport retries dedupe at the tool boundary (OP-7); the generated tool schema adds it.',
    source: 'SOP OP-7, Case 4',
  },
  {
    id: 'key_carrier_too_short',
    severity: 'warning',
    title: 'Idempotency key carrier too short',
    description:
      'The key carrier allows fewer than 16 characters: too little entropy for a random key (a UUID needs 36, 128 random bits need 22 in base64url), so unrelated intents can collide and one would replay the other.',
    source: 'SOP §2.3, §3 Step 3',
  },
  {
    id: 'compensation_target_missing',
    severity: 'error',
    title: 'Compensation names an operation that does not exist',
    description: 'x-compensation or config.overrides.*.compensation names an operation key that is not in this API, so the saga (OP-5) cannot undo.',
    source: 'SOP OP-5',
  },
  {
    id: 'extension_contradicts_header',
    severity: 'error',
    title: 'Idempotency extension contradicts the declared header',
    description: 'A vendor extension names a different key carrier than the header parameter the operation declares (or denies a key the operation declares).',
    source: 'SOP §3 Step 4 (one key, one carrier)',
  },
  {
    id: 'ambiguous_tool_effect',
    severity: 'warning',
    title: 'Tool name and annotations disagree about its effect',
    description: 'The tool name reads like a read, but its annotations say it is destructive (or read-only and destructive at once). It is classified as a write; fix the name or the annotations.',
    source: 'MCP ToolAnnotations; SOP §1',
  },
];

export const RULE_BY_ID: ReadonlyMap<string, RuleMeta> = new Map(RULES.map((r) => [r.id, r]));

/** Build a finding with the configured severity; `undefined` when the user turned the rule off. */
export function makeFinding(
  config: ResolvedConfig,
  id: string,
  message: string,
  where: { file: string; pointer: string; hint?: string },
  severity?: Severity,
): Diagnostic | undefined {
  const configured = config.severities[id];
  if (configured === 'off') return undefined;
  const base = severity ?? RULE_BY_ID.get(id)?.severity ?? 'warning';
  return diagnostic(id, configured ?? base, message, where);
}
