/**
 * Config entries that change nothing, as warnings with the closest real name as the hint (a misspelled key
 * would otherwise do nothing in silence):
 * - `override_matches_nothing`: an `overrides` key that names no operation of the run. An override is found by
 *   operation key, then operationId (tool name for a tool list), then client method name (context.ts
 *   `findOverride`). A warning, not an error: one config may serve runs over different inputs.
 * - `severity_rule_unknown`: a `severities` key that names no rule. The rule ids come from the caller
 *   (classify's, the code audit's and the MCP audit's rule tables), since the audits sit above classify.
 * Both follow `config.severities` like every rule (`off` silences one).
 */
import type { ResolvedConfig } from '../config/types.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { closest } from '../diagnostics/suggest.js';
import type { ApiModel } from '../ir/types.js';
import { appendPointer } from '../json-pointer/pointer.js';

/** The ids `severities` can set besides the callers' rule tables: these warnings themselves. */
const CONFIG_FINDING_IDS = ['override_matches_nothing', 'severity_rule_unknown'] as const;

/** One warning per key of `config[section]` that is not in `names`. */
function unknownKeys(
  config: ResolvedConfig,
  code: (typeof CONFIG_FINDING_IDS)[number],
  section: 'overrides' | 'severities',
  names: ReadonlySet<string>,
  says: (key: string) => string,
): Diagnostic[] {
  const severity = config.severities[code] ?? 'warning';
  if (severity === 'off') return [];
  const out: Diagnostic[] = [];
  for (const key of Object.keys(config[section])) {
    if (names.has(key)) continue;
    const near = closest(key, [...names]);
    out.push(
      diagnostic(code, severity, says(key), {
        ...(config.configFile !== undefined ? { file: config.configFile } : {}),
        pointer: appendPointer(`/${section}`, key),
        ...(near !== undefined ? { hint: `did you mean "${near}"?` } : {}),
      }),
    );
  }
  return out;
}

export function unmatchedOverrides(apis: readonly ApiModel[], config: ResolvedConfig): Diagnostic[] {
  if (Object.keys(config.overrides).length === 0) return [];
  const names = new Set<string>();
  for (const api of apis)
    for (const op of api.operations)
      for (const name of [op.key, op.kind === 'http' ? op.operationId : op.toolName, op.name])
        if (name !== undefined) names.add(name);
  return unknownKeys(
    config,
    'override_matches_nothing',
    'overrides',
    names,
    (key) =>
      `config overrides["${key}"] names no operation of the inputs (by operation key, operationId, tool name or client method name), so it changes nothing`,
  );
}

export function unknownSeverityRules(config: ResolvedConfig, ruleIds: readonly string[]): Diagnostic[] {
  return unknownKeys(
    config,
    'severity_rule_unknown',
    'severities',
    new Set([...ruleIds, ...CONFIG_FINDING_IDS]),
    (key) =>
      `config severities["${key}"] names no rule whose severity can be set (the audit's rule table lists them), so it changes nothing`,
  );
}
