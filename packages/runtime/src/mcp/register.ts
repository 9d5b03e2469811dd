/**
 * `registerToolRuntime(server, runtime)`: every tool binding as an MCP tool on an SDK server. It sits on
 * the low-level `tools/list` and `tools/call` handlers because `McpServer.registerTool` (SDK 1.32) only
 * accepts zod schemas, and our input schemas are JSON Schema already (converting would lose keywords).
 * So idemgen owns `tools/*` on that server; the caller keeps resources and prompts.
 *
 * Part of `@idemgen/runtime/mcp`, the one runtime entry that imports the MCP SDK (a peer dependency).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { KeyScope } from '../core/keys.js';
import type { ToolAuth } from '../tools/auth.js';
import { withoutKeyArgument } from '../tools/key-argument.js';
import type { ToolBinding, ToolCallContext, ToolOutcome } from '../tools/types.js';
import { DESCRIBE_TOOL, INVOKE_TOOL, SEARCH_TOOL, describeTool, metaTools, searchTools } from './dynamic.js';
import { hostIntent, INTENT_REQUIRED, type HostIntent, type McpKeySource } from './intent.js';
import { canElicitForm, elicitingHuman, whoAnswers, type ElicitingClient } from './elicit.js';
import { outcomeToResult } from './outcome.js';
import { hiddenOf, listedToolsOf } from './listing.js';
import type { ListedTool } from './tool-meta.js';
import { resolveCaller, withServerArguments } from './caller.js';

/** What registration needs of a tool runtime (`createToolRuntime` returns one). */
export interface McpToolRuntime {
  list(): readonly ToolBinding[];
  call(name: string, args: unknown, ctx?: ToolCallContext): Promise<ToolOutcome>;
}

type CallExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

export interface RegisterToolRuntimeOptions {
  /** List `search_tools`, `describe_tool` and `invoke_tool` instead of one tool per operation. */
  dynamic?: boolean;
  /**
   * Tool arguments the server fills in from its configuration (`{ AccountSid: process.env.TWILIO_ACCOUNT_SID }`):
   * removed from the listed schemas and always overriding what a model sends.
   */
  serverArguments?: Record<string, unknown>;
  /** Dedup namespace per request. Default: the authenticated subject (`authInfo.extra.sub`), none on stdio. */
  scope?: (extra: CallExtra) => string | KeyScope | undefined;
  /**
   * The caller's own API credentials per request, by security scheme (from a header of `extra.requestInfo`, a
   * token exchange): sent on its calls over the runtime's `auth`, and part of the dedup scope as a keyed hash
   * (`createToolRuntime({ scopeSecret })`), so callers on different upstream accounts never share a result.
   */
  credentials?: (extra: CallExtra) => ToolAuth | undefined;
  /**
   * Where a write's key comes from (intent.ts). `model` (default): the host's `_meta["io.idemgen/intent"]`
   * or `_meta["io.idemgen/key"]` when the request carries one (it wins over the model's key), else the
   * model's `idempotency_key`. `intent`: the key argument is not listed and a write needs the host's intent.
   */
  keySource?: McpKeySource;
  /**
   * Which tools `tools/list` and `search_tools` show (`idemgen serve`: only reads for a token without the
   * write scope). Calls still reach the runtime, which refuses what the caller may not do. Default: all.
   */
  listed?: (binding: ToolBinding) => boolean;
  /**
   * List the compact form (compact.ts): a one-line key description, repeated sub-schemas shared through
   * each schema's `$defs`, no `title` keywords. The server must then state the key rule once: construct it
   * with `{ instructions: KEY_INSTRUCTIONS }`.
   */
  compact?: boolean;
  /**
   * Ask the person through the client (MCP elicitation, elicit.ts) when it declared the capability: a yes
   * before a write the runtime's `confirm` policy names, and "did it happen?" for an unknown outcome. Default:
   * on, judged by the client's `initialize`. `false`: never ask. A function: the client behind this request
   * (a stateless HTTP server sees no `initialize` on a tool call's request), `undefined` when not known.
   */
  elicitation?: boolean | ((extra: CallExtra) => ElicitingClient | undefined);
}

/** `invoke_tool` under `keySource: 'intent'`: the default text asks the model for a key it must not send. */
const INVOKE_BY_INTENT =
  'Call one operation by name. `arguments` must match the schema from describe_tool. Operations with side effects are keyed by the application for the current turn, so retrying the same call in the same turn runs it at most once; there is no key argument.';

const lowLevel = (server: McpServer | Server): Server => ('server' in server ? server.server : server);

function fail(code: string, message: string): CallToolResult {
  return outcomeToResult({
    ok: false,
    error: { code, message, executed: 'no', retry_same_key: true },
  }) as CallToolResult;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export function registerToolRuntime(
  server: McpServer | Server,
  runtime: McpToolRuntime,
  options: RegisterToolRuntimeOptions = {},
): void {
  registerListedToolRuntime(server, runtime, options);
}

/**
 * A runtime, or a function that builds one (`idemgen serve` in dynamic and code mode, whose listed tools are
 * fixed: the server answers `tools/list` before the specs are analysed).
 */
export type RuntimeSource = McpToolRuntime | (() => Promise<McpToolRuntime>);

/**
 * What a registration derives from its runtime (`derive`): at once for a runtime; for a function, when the
 * first `tools/call` needs it, or on the next turn of the event loop after `soon()` (called by a `tools/list`
 * that needed no runtime: its answer is written before the build occupies the thread). The function runs
 * once; a failed build fails the requests that wait for it.
 */
export function onDemand<T>(
  source: RuntimeSource,
  derive: (runtime: McpToolRuntime) => T,
): { get(): T | Promise<T>; soon(): void } {
  if (typeof source !== 'function') {
    const value = derive(source);
    return { get: () => value, soon: () => undefined };
  }
  let pending: Promise<T> | undefined;
  const get = (): Promise<T> => {
    pending ??= source().then(derive);
    return pending;
  };
  return {
    get,
    soon: () => {
      if (pending === undefined) setTimeout(() => get().catch(() => undefined), 0);
    },
  };
}

/**
 * `registerToolRuntime` with the per-operation listing given when the caller already holds it
 * (`idemgen serve`'s cache): what `listedToolsOf(runtime.list(), options)` returns for these options.
 * Not used with `dynamic` or `listed`. A runtime built on demand (`RuntimeSource`) suits dynamic mode,
 * whose list needs none. Internal: not part of `@idemgen/runtime/mcp`.
 */
export function registerListedToolRuntime(
  server: McpServer | Server,
  source: RuntimeSource,
  options: RegisterToolRuntimeOptions = {},
  listing?: readonly ListedTool[],
): void {
  const intentOnly = options.keySource === 'intent';
  // Under `intent` the model never sees the key argument: the host's intent is the one source.
  const hidden = hiddenOf(options);
  const meta = metaTools().map((t) =>
    intentOnly && t.name === INVOKE_TOOL ? { ...t, description: INVOKE_BY_INTENT } : t,
  );
  const routes = onDemand(source, (runtime) => {
    const bindings = runtime.list();
    const shown = options.listed === undefined ? bindings : bindings.filter(options.listed);
    const listed = options.dynamic
      ? meta
      : options.listed === undefined && listing !== undefined
        ? listing
        : listedToolsOf(shown, options);
    return { runtime, byName: new Map(bindings.map((b) => [b.names.mcp, b])), shown, listed };
  });
  const low = lowLevel(server);
  low.registerCapabilities({ tools: {} });
  const elicitation = options.elicitation ?? true;
  const clientOf = (extra: CallExtra): ElicitingClient | undefined => {
    if (elicitation === false) return undefined;
    if (typeof elicitation === 'function') return elicitation(extra);
    const capabilities = low.getClientCapabilities();
    const info = low.getClientVersion();
    return { ...(capabilities ? { capabilities } : {}), ...(info ? { info } : {}) };
  };
  low.setRequestHandler(ListToolsRequestSchema, async () => {
    if (!options.dynamic) return { tools: (await routes.get()).listed as never };
    routes.soon();
    return { tools: meta as never };
  });

  const invoke = (
    runtime: McpToolRuntime,
    binding: ToolBinding,
    args: Record<string, unknown>,
    extra: CallExtra,
    meta: unknown,
  ): Promise<CallToolResult> => invokeBinding(runtime, binding, args, extra, meta, options, clientOf);

  low.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = asRecord(request.params.arguments);
    const { runtime, byName, shown } = await routes.get();
    if (options.dynamic)
      return callMetaTool(name, args, shown, byName, hidden, (target) =>
        invoke(runtime, target, asRecord(args.arguments), extra, request.params._meta),
      );
    const binding = byName.get(name);
    if (binding === undefined) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    return invoke(runtime, binding, args, extra, request.params._meta);
  });
}

/** One call of a listed operation: the host's intent, the caller, elicitation, the server's arguments, then the runtime. */
async function invokeBinding(
  runtime: McpToolRuntime,
  binding: ToolBinding,
  args: Record<string, unknown>,
  extra: CallExtra,
  meta: unknown,
  options: RegisterToolRuntimeOptions,
  clientOf: (extra: CallExtra) => ElicitingClient | undefined,
): Promise<CallToolResult> {
  const intentOnly = options.keySource === 'intent';
  const keyed = binding.effect === 'write' && binding.keyProperty !== undefined;
  const host: HostIntent = keyed ? hostIntent(meta, binding.names.mcp) : { ok: true };
  if (!host.ok) return fail('intent_invalid', `${host.message}. Nothing was executed.`);
  if (keyed && host.intent === undefined && intentOnly) return fail('intent_missing', INTENT_REQUIRED);
  const caller = resolveCaller(extra, options);
  if (!caller.ok) return outcomeToResult({ ok: false, error: caller.error }) as CallToolResult;
  const { scope } = caller;
  // On a cancel (client timeout) the runtime stops waiting but lets the call finish and be recorded, so
  // the same-key retry replays it instead of finding an unknown outcome.
  const ctx: ToolCallContext = { format: 'mcp', scope, signal: extra.signal };
  if (caller.credentials !== undefined) ctx.credentials = caller.credentials as ToolAuth;
  const client = clientOf(extra);
  if (binding.effect === 'write' && client !== undefined && canElicitForm(client.capabilities))
    ctx.human = elicitingHuman(extra, whoAnswers(scope, client));
  let sent = withServerArguments(args, binding, options.serverArguments);
  if (host.intent !== undefined) {
    // The host's intent wins over a key the model wrote (intent.ts: the host is the trusted side).
    ctx.intent = host.intent;
    sent = withoutKeyArgument(sent, binding.keyProperty);
  }
  const outcome = await runtime.call(binding.names.mcp, sent, ctx);
  return outcomeToResult(outcome) as CallToolResult;
}

/** Dynamic mode's three meta tools: search the shown operations, describe one, invoke one. */
function callMetaTool(
  name: string,
  args: Record<string, unknown>,
  shown: readonly ToolBinding[],
  byName: ReadonlyMap<string, ToolBinding>,
  hidden: ReturnType<typeof hiddenOf>,
  invokeTarget: (target: ToolBinding) => Promise<CallToolResult>,
): CallToolResult | Promise<CallToolResult> {
  if (name === SEARCH_TOOL) {
    const hits = searchTools(shown, String(args.query ?? ''), typeof args.limit === 'number' ? args.limit : undefined);
    return {
      content: [{ type: 'text', text: JSON.stringify({ tools: hits }) }],
      structuredContent: { tools: hits },
    };
  }
  const target = byName.get(String(args.name ?? ''));
  if (name === DESCRIBE_TOOL || name === INVOKE_TOOL) {
    if (target === undefined)
      return fail(
        'unknown_tool',
        `No operation named ${JSON.stringify(args.name)}; find names with ${SEARCH_TOOL}. Nothing was executed.`,
      );
    if (name === INVOKE_TOOL) return invokeTarget(target);
    const description = describeTool(target, hidden(target));
    return {
      content: [{ type: 'text', text: JSON.stringify(description) }],
      structuredContent: description as unknown as Record<string, unknown>,
    };
  }
  throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
}
