/**
 * `idemgen serve`'s tools from a plan: specs loaded and classified in memory, narrowed by the selection,
 * turned into bindings (the handlers artifact's `bindingOf`, without the strict OpenAI form): the
 * `ServeAnalysis` the serve cache stores. tools.ts builds the runtime from it.
 */
import type { ResolvedConfig, ToolSelection } from '../config/types.js';
import { bindingOf } from '../emit/handlers/bindings.js';
import { selectApi } from '../emit/select.js';
import { DegradeLog } from '../emit/tools/degrade.js';
import { buildToolSpec } from '../emit/tools/tool-spec.js';
import { targetNames } from '../emit/tool-model.js';
import type { ApiPlan, Plan } from '../classify/types.js';
import type { McpToolRuntime } from '@idemgen/runtime/mcp';
import type { ToolBinding } from '@idemgen/runtime/tools';
import { securitySchemesOf } from '../ir/security-schemes.js';
import { type ServeAnalysis, type ServeApi, type ServeRuntimeSettings, serveRuntimeOf } from './tools.js';

export interface ServeRuntimeOptions extends Omit<ServeRuntimeSettings, 'sagaTable'> {
  plan: Plan;
  config: ResolvedConfig;
  select: ToolSelection;
}

/**
 * The API's bindings as `buildToolBindings` makes them, from the tool spec alone: serve lists and calls MCP
 * tools only, so it never builds the strict OpenAI form (half of building a tool, Stripe); bindings do not
 * carry it anyway (runtime/tools/strict derives it when an OpenAI adapter asks).
 */
function serveBindings(apiPlan: ApiPlan, config: ResolvedConfig): ToolBinding[] {
  const names = targetNames(apiPlan);
  const log = new DegradeLog(apiPlan.api.id);
  const out: ToolBinding[] = [];
  for (const entry of apiPlan.entries) {
    const op = entry.operation;
    if (op.kind !== 'http') continue;
    out.push(bindingOf(apiPlan, entry, op, names, config, { spec: buildToolSpec(apiPlan, entry, config, log) }));
  }
  return out;
}

/** What serve holds of the plan: per API the selected bindings, servers and scheme names (tools.ts). */
export function serveAnalysis(plan: Plan, config: ResolvedConfig, select: ToolSelection): ServeAnalysis {
  return {
    apis: plan.apis.map((apiPlan) => ({
      id: apiPlan.api.id,
      servers: [...apiPlan.api.servers],
      schemes: Object.keys(securitySchemesOf(apiPlan.api.root)).sort(),
      bindings: serveBindings(selectApi(apiPlan, select), config),
    })),
  };
}

/** The plan's tools as one MCP runtime (`serveAnalysis` then `serveRuntimeOf`). */
export function buildServeRuntime(opts: ServeRuntimeOptions): { runtime: McpToolRuntime; apis: ServeApi[] } {
  const { plan, config, select, ...settings } = opts;
  return serveRuntimeOf(serveAnalysis(plan, config, select), { ...settings, sagaTable: config.sql.sagaTable });
}
