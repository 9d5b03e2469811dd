/**
 * The tool model: the stage between classify and the artifacts that render tools. Per API it assigns the
 * tool names of every target once, then builds each operation's tool once — its `ToolSpec` (name, texts,
 * input schema with the key, the arguments' HTTP routes and body that the handlers' bindings read) and,
 * only when a consumer asks for it (`needsStrict`: the tools artifact writing the `openai` format), its
 * strict OpenAI form — and hands it to every consumer of the run before building the next. Nothing holds
 * an API's tools at once (a Graph-sized API has ~11,000), and no artifact builds a tool again.
 *
 * Artifacts that declare `consumes: ['plan', 'toolModel']` (artifact.ts) are consumers; the pipeline
 * runs this stage once for all of them, and not at all when none is selected.
 */
import type { ApiPlan, Plan, PlanEntry } from '../classify/types.js';
import type { ResolvedConfig } from '../config/types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { FileSink } from './types.js';
import { DegradeLog } from './tools/degrade.js';
import { targetNames, type TargetNames } from './tools/names.js';
import { toOpenAiTool, type OpenAiTool } from '@idemgen/runtime/internal/tools/strict/to-openai.js';
import { buildToolSpec, type ToolSpec } from './tools/tool-spec.js';

// What the tool model's consumers read, from the stage rather than from the tools artifact's folder.
export { targetNames, type TargetNames } from './tools/names.js';
export type { ToolSpec } from './tools/tool-spec.js';

/** One API of the model, as its consumers see it from `startApi` to `endApi`. */
interface ToolModelApi {
  readonly plan: ApiPlan;
  /** Operation key → tool name, per target (the same maps for every consumer). */
  readonly names: TargetNames;
  /**
   * What building the API's tools degraded (unresolved refs, trimmed schemas, strict OpenAI encodings) and
   * the keywords strict mode removed: complete at `endApi`. The tools artifact reports them. The strict
   * findings exist only in a run that built the strict form (a consumer with `needsStrict`).
   */
  readonly log: DegradeLog;
  readonly removedKeywords: ReadonlySet<string>;
}

/** One operation's tool: read-only for consumers (every consumer of the run gets the same objects). */
export interface ToolModelTool {
  readonly entry: PlanEntry;
  readonly spec: ToolSpec;
  /** The strict OpenAI form: built only when a consumer of the run declares `needsStrict`. */
  readonly strict?: OpenAiTool;
}

export interface ToolModelConsumer {
  /** Reads `tool.strict` (the OpenAI format); when no consumer does, the stage skips building it. */
  readonly needsStrict?: boolean;
  startApi(api: ToolModelApi): void;
  /** Every entry of the API, in plan order. */
  tool(api: ToolModelApi, tool: ToolModelTool): void;
  endApi(api: ToolModelApi): void;
  /** After the last API: the consumer's diagnostics. */
  finish(): Diagnostic[];
}

/** A tool-model artifact's emitter: opens one consumer for a run, writing its files into the run's sink. */
export type ToolModelEmit = (plan: Plan, config: ResolvedConfig, sink: FileSink) => ToolModelConsumer;

/**
 * One entry's tool, as the stage builds it: what it degraded goes to `log`; with `removed` given, its strict
 * OpenAI form too, the keywords strict mode removed going to `removed`. Also for callers that need one
 * API's tools outside a run (`buildToolBindings`, `serve`), which read no strict form.
 */
export function buildTool(
  apiPlan: ApiPlan,
  entry: PlanEntry,
  names: TargetNames,
  config: ResolvedConfig,
  log: DegradeLog = new DegradeLog(apiPlan.api.id),
  removed?: Set<string>,
): ToolModelTool {
  const spec = buildToolSpec(apiPlan, entry, config, log);
  if (removed === undefined) return { entry, spec };
  const strict = toOpenAiTool(spec, names.openai.get(spec.key) as string, removed);
  log.openAi(spec.key, spec.source, strict.encoded, strict.limits);
  return { entry, spec, strict };
}

/** Runs the stage over `plan` (already narrowed by `select`), feeding every consumer; returns their diagnostics in order. */
export function streamToolModel(
  plan: Plan,
  config: ResolvedConfig,
  consumers: readonly ToolModelConsumer[],
): Diagnostic[][] {
  const needsStrict = consumers.some((c) => c.needsStrict === true);
  for (const apiPlan of plan.apis) {
    const removed = new Set<string>();
    const api: ToolModelApi = {
      plan: apiPlan,
      names: targetNames(apiPlan),
      log: new DegradeLog(apiPlan.api.id),
      removedKeywords: removed,
    };
    for (const c of consumers) c.startApi(api);
    for (const entry of apiPlan.entries) {
      const tool = buildTool(apiPlan, entry, api.names, config, api.log, needsStrict ? removed : undefined);
      for (const c of consumers) c.tool(api, tool);
    }
    for (const c of consumers) c.endApi(api);
  }
  return consumers.map((c) => c.finish());
}
