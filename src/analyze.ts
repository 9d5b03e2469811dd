/**
 * load → ir → classify, without emitting or writing anything: what `generate`, `audit`, `check` and `serve`
 * all start from. Kept apart from the emit pipeline (pipeline.ts) so a caller that only needs the plan —
 * `idemgen serve` — does not load the artifact registry and its templates.
 */
import { resolve } from 'node:path';
import type { ApiModel } from './ir/types.js';
import type { Plan } from './classify/types.js';
import type { ResolvedConfig } from './config/types.js';
import { InputError, type Diagnostic } from './diagnostics/diagnostic.js';
import type { LoadedDoc } from './load/types.js';
import { loadInputs } from './load/index.js';
import { isNoDocumentRun, noDocumentDiagnostic } from './load/no-documents.js';
import { buildApiModels } from './ir/index.js';
import { namedApiIds } from './config/api-names.js';
import { classify } from './classify/index.js';
import { locateDiagnostics } from './diagnostics/locate.js';
import { unknownSeverityRules, unmatchedOverrides } from './classify/config-findings.js';
import { locateInTextFiles } from './load/text-positions.js';
import { RULES } from './classify/rules.js';
import { CODE_RULES } from './audit-code/rules.js';
import { MCP_RULES } from './audit-mcp/rules.js';
import { timed, timedAsync } from './timing.js';

export interface AnalysisResult {
  docs: LoadedDoc[];
  apis: ApiModel[];
  plan: Plan;
  /** Load and IR diagnostics (input problems). Classification findings are in `plan.diagnostics`. */
  diagnostics: Diagnostic[];
}

/**
 * `extraDocs`: documents that did not come from a file, e.g. a live MCP server's tools/list.
 * `opts.locateIrDiagnostics: false`: the IR's diagnostics come without line/col (a caller that keeps only
 * some of them locates those with `locateDiagnostics`, which gives the same positions).
 * `opts.entryFindings: false`: classify skips the findings about finished entries (same plan entries).
 * Inputs that yield no document (and no extra one) throw `no_input_document` (an InputError, exit 2) unless
 * `opts.requireDocuments` is false (audit, when agent code is its input).
 */
/** The rule ids `config.severities` can set from the rule tables: classify's, the code audit's, the MCP audit's. */
const SEVERITY_RULE_IDS: readonly string[] = [...RULES, ...CODE_RULES, ...MCP_RULES].map((r) => r.id);

/** Config entries that change nothing for these inputs: overrides naming no operation, severities naming no rule. */
function configFindings(
  apis: readonly ApiModel[],
  config: ResolvedConfig,
  opts: { entryFindings?: boolean; checkOverrides?: boolean },
): Diagnostic[] {
  if (opts.entryFindings === false) return []; // serve: it keeps errors only
  return [
    ...(opts.checkOverrides === false ? [] : unmatchedOverrides(apis, config)),
    ...unknownSeverityRules(config, SEVERITY_RULE_IDS),
  ];
}

export async function analyze(
  inputs: string[],
  config: ResolvedConfig,
  cwd: string,
  extraDocs: LoadedDoc[] = [],
  opts: {
    locateIrDiagnostics?: boolean;
    entryFindings?: boolean;
    requireDocuments?: boolean;
    /** Warn about config overrides that name no operation of `inputs` (default true; classify/config-findings.ts). */
    checkOverrides?: boolean;
  } = {},
): Promise<AnalysisResult> {
  // The output folder is never read as input, even when an input folder holds it (`idemgen generate .`).
  const skip = [resolve(cwd, config.out)];
  const fromFiles = await timedAsync('load', () => loadInputs(inputs, { cwd, skip }));
  if (
    opts.requireDocuments !== false &&
    extraDocs.length === 0 &&
    isNoDocumentRun(inputs, fromFiles.docs.length, fromFiles.diagnostics)
  )
    throw new InputError([await noDocumentDiagnostic(inputs, cwd, skip)]);
  const loaded = { docs: [...fromFiles.docs, ...extraDocs], diagnostics: fromFiles.diagnostics };
  const named = namedApiIds(
    loaded.docs.map((d) => d.file),
    cwd,
    config.apiNames ?? {},
    config.apiName,
  );
  const built = timed('ir', () =>
    buildApiModels(loaded.docs, named.ids, { locate: opts.locateIrDiagnostics !== false }),
  );
  const apis: ApiModel[] = built.apis;
  const diagnostics = [
    ...loaded.diagnostics,
    ...named.diagnostics,
    ...built.diagnostics,
    // At their line in the config file, like the config's own mistakes.
    ...locateInTextFiles(configFindings(apis, config, opts), [config.configFile]),
  ];
  const classified = timed('classify', () => classify(apis, config, { entryFindings: opts.entryFindings }));
  // Findings carry line/col in every report, generated/report included, not only in `idemgen audit`.
  const plan = {
    ...classified,
    diagnostics: timed('locate', () => locateDiagnostics(classified.diagnostics, loaded.docs)),
  };
  return { docs: loaded.docs, apis, plan, diagnostics };
}
