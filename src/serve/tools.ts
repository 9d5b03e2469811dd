/**
 * The tools `idemgen serve` holds once the specs are analysed (`ServeAnalysis`: per API its tool bindings,
 * servers and security scheme names: plain JSON, so the serve cache (cache.ts) can store it) and the runtime
 * built from them. Kept apart from runtime.ts, which derives the analysis from a plan: a start served from
 * the cache loads neither the analysis nor the emitters.
 */
import type { McpToolRuntime } from '@idemgen/runtime/mcp';
import type { ListedTool } from '@idemgen/runtime/mcp';
import type { DedupStore } from '@idemgen/runtime';
import { isNative } from '@idemgen/runtime/internal/tools/execute.js';
import { createToolRuntime } from '@idemgen/runtime/internal/tools/runtime.js';
import type { ConfirmPolicy } from '@idemgen/runtime/internal/tools/human.js';
import type { ToolBinding } from '@idemgen/runtime/tools';
import { apiCredentials } from './api-auth.js';

/** Usage problems found while building (no base URL, clashing names): the command prints them, exit 2. */
export class ServeSetupError extends Error {}

/** One API as serve uses it: no document, no plan. */
interface ServeApiAnalysis {
  id: string;
  servers: string[];
  /** Its security schemes' names (the credentials read from the environment). */
  schemes: string[];
  /** The selected operations' bindings, in plan order; may be empty (the API still names schemes). */
  bindings: ToolBinding[];
}

export interface ServeAnalysis {
  apis: ServeApiAnalysis[];
  /** `tools/list`'s per-operation answer for every caller, when serve lists one tool per operation. */
  listing?: ListedTool[];
  /** The UTF-8 bytes of that listing as JSON (`{ tools }` less a few): what a client puts in its model's context. */
  listingBytes?: number;
}

/**
 * Whether a listed tool keeps a row in the dedup store: a write the API does not dedupe itself (native-key
 * with its carrier) and whose method does not make a repeat harmless (method-idempotent). Reads keep none.
 */
export function needsStore(analysis: ServeAnalysis): boolean {
  return analysis.apis.some((a) =>
    a.bindings.some((b) => b.effect === 'write' && !isNative(b) && b.mechanism !== 'method-idempotent'),
  );
}

export interface ServeRuntimeSettings {
  /** Absent when no listed tool needs one (`needsStore`). */
  store: DedupStore | undefined;
  sagaTable: string;
  baseUrl?: string;
  env: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  /** Schemes whose credential comes from each HTTP caller (caller.ts), never from the environment. */
  perCallerSchemes?: readonly string[];
  /** Keys per-caller credentials into the dedup scope (scope-secret.ts); needed with `perCallerSchemes`. */
  scopeSecret?: Uint8Array;
  /** Which writes wait for the user's yes when the client can be asked (runtime/tools/human.ts). */
  confirm?: ConfirmPolicy;
}

export interface ServeApi {
  id: string;
  baseUrl: string;
  tools: number;
  auth: { used: string[]; missing: string[] };
}

function baseUrlOf(servers: readonly string[], given: string | undefined, id: string): string {
  if (given !== undefined) return given;
  const absolute = servers.find((s) => /^https?:\/\//i.test(s));
  if (absolute === undefined)
    throw new ServeSetupError(`${id}: the spec names no absolute http(s) server; pass --base-url`);
  return absolute;
}

/**
 * The schemes worth asking for: those of the tools no credential at hand can authorise. A tool's security
 * requirement is a list of alternatives, any one of which is enough (OpenAPI: each alternative's schemes
 * together), so a tool that bearer credentials satisfy needs nothing for its basic-auth alternative.
 */
function unmetSchemes(
  bindings: readonly ToolBinding[],
  used: readonly string[],
  perCaller: readonly string[],
): string[] {
  const have = new Set([...used, ...perCaller]);
  const missing = new Set<string>();
  for (const b of bindings) {
    const alternatives = b.security;
    if (alternatives === undefined || alternatives.length === 0) continue;
    if (alternatives.some((all) => all.every((s) => have.has(s.scheme)))) continue;
    for (const all of alternatives) for (const s of all) if (!have.has(s.scheme)) missing.add(s.scheme);
  }
  return [...missing].sort();
}

/** One tool runtime per API (its own base URL and credentials) behind one name index for MCP. */
export function serveRuntimeOf(
  analysis: ServeAnalysis,
  opts: ServeRuntimeSettings,
): { runtime: McpToolRuntime; apis: ServeApi[] } {
  const owners = new Map<string, ReturnType<typeof createToolRuntime>>();
  const all: ToolBinding[] = [];
  const apis: ServeApi[] = [];
  const perCaller = opts.perCallerSchemes ?? [];
  const schemes = new Set(analysis.apis.flatMap((a) => a.schemes));
  const unknown = perCaller.filter((s) => !schemes.has(s));
  if (unknown.length > 0)
    throw new ServeSetupError(
      `--upstream-header names no security scheme of the specs: ${unknown.join(', ')} (the specs have: ${[...schemes].sort().join(', ') || 'none'})`,
    );
  for (const api of analysis.apis) {
    const { bindings } = api;
    if (bindings.length === 0) continue;
    const baseUrl = baseUrlOf(api.servers, opts.baseUrl, api.id);
    const creds = apiCredentials(api.schemes, opts.env, perCaller);
    const runtime = createToolRuntime({
      bindings,
      baseUrl,
      store: opts.store,
      sagaTable: opts.sagaTable,
      // Per-caller schemes are not in `creds.auth`: each call brings its own (caller.ts).
      auth: creds.auth,
      ...(opts.scopeSecret !== undefined ? { scopeSecret: opts.scopeSecret } : {}),
      ...(opts.confirm !== undefined ? { confirm: opts.confirm } : {}),
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
      id: api.id,
      baseUrl,
      tools: bindings.length,
      auth: { used: creds.used, missing: unmetSchemes(bindings, creds.used, perCaller) },
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
