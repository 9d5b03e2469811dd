/**
 * `idemgen serve`'s tools: specs loaded and classified in memory, narrowed by the selection, turned into
 * bindings (the handlers artifact's `bindingOf`, without the strict OpenAI form) and one tool runtime per API
 * (each has its own base URL and credentials), combined behind one name index for MCP.
 */
import type { ResolvedConfig, ToolSelection } from '../config/types.js';
import { bindingOf } from '../emit/handlers/bindings.js';
import { selectApi } from '../emit/select.js';
import { DegradeLog } from '../emit/tools/degrade.js';
import { buildToolSpec } from '../emit/tools/tool-spec.js';
import { targetNames } from '../emit/tool-model.js';
import type { ApiPlan, Plan } from '../classify/types.js';
import type { McpToolRuntime } from '../runtime/mcp/register.js';
import type { DedupStore } from '../runtime/store/types.js';
import { createToolRuntime } from '../runtime/tools/runtime.js';
import type { ToolBinding } from '../runtime/tools/types.js';
import { securitySchemesOf } from '../ir/security-schemes.js';
import { apiCredentials } from './api-auth.js';
import { callerAuth } from './caller.js';

export interface ServeRuntimeOptions {
  plan: Plan;
  config: ResolvedConfig;
  select: ToolSelection;
  store: DedupStore;
  baseUrl?: string;
  env: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  /** Schemes whose credential comes from each HTTP caller (caller.ts), never from the environment. */
  perCallerSchemes?: readonly string[];
}

export interface ServeApi {
  id: string;
  baseUrl: string;
  tools: number;
  auth: { used: string[]; missing: string[] };
}

/** Usage problems found while building (no base URL, clashing names): the command prints them, exit 2. */
export class ServeSetupError extends Error {}

function baseUrlOf(servers: readonly string[], given: string | undefined, id: string): string {
  if (given !== undefined) return given;
  const absolute = servers.find((s) => /^https?:\/\//i.test(s));
  if (absolute === undefined)
    throw new ServeSetupError(`${id}: the spec names no absolute http(s) server; pass --base-url`);
  return absolute;
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

export function buildServeRuntime(opts: ServeRuntimeOptions): { runtime: McpToolRuntime; apis: ServeApi[] } {
  const owners = new Map<string, ReturnType<typeof createToolRuntime>>();
  const all: ToolBinding[] = [];
  const apis: ServeApi[] = [];
  const perCaller = opts.perCallerSchemes ?? [];
  const schemes = new Set(opts.plan.apis.flatMap((a) => Object.keys(securitySchemesOf(a.api.root))));
  const unknown = perCaller.filter((s) => !schemes.has(s));
  if (unknown.length > 0)
    throw new ServeSetupError(
      `--upstream-header names no security scheme of the specs: ${unknown.join(', ')} (the specs have: ${[...schemes].sort().join(', ') || 'none'})`,
    );
  for (const apiPlan of opts.plan.apis) {
    const bindings = serveBindings(selectApi(apiPlan, opts.select), opts.config);
    if (bindings.length === 0) continue;
    const baseUrl = baseUrlOf(apiPlan.api.servers, opts.baseUrl, apiPlan.api.id);
    const creds = apiCredentials([apiPlan.api.root], opts.env, perCaller);
    const runtime = createToolRuntime({
      bindings,
      baseUrl,
      store: opts.store,
      sagaTable: opts.config.sql.sagaTable,
      auth: callerAuth(creds.auth, perCaller),
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
    for (const b of bindings) {
      if (owners.has(b.names.mcp))
        throw new ServeSetupError(
          `two specs both have a tool named ${b.names.mcp}; serve them separately or narrow with --exclude`,
        );
      owners.set(b.names.mcp, runtime);
      all.push(b);
    }
    apis.push({
      id: apiPlan.api.id,
      baseUrl,
      tools: bindings.length,
      auth: { used: creds.used, missing: creds.missing },
    });
  }
  const runtime: McpToolRuntime = {
    list: () => all,
    call: async (name, args, ctx) => {
      const owner = owners.get(name);
      if (owner === undefined)
        return {
          ok: false,
          error: {
            code: 'unknown_tool',
            executed: 'no',
            retry_same_key: true,
            message: `There is no tool named ${JSON.stringify(name)}.`,
          },
        };
      return owner.call(name, args, ctx);
    },
  };
  return { runtime, apis };
}
