/**
 * `serve --code`: two tools instead of one per operation. `search` finds operations and shows how to call
 * them; `execute` runs a script whose only way out is `api.<tool>(args)` (run.ts, sandbox.ts). Like
 * registerToolRuntime, this owns `tools/list` and `tools/call` on the SDK server.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { validateKey } from '@idemgen/runtime/internal/core/keys.js';
import { onDemand, type RuntimeSource } from '@idemgen/runtime/internal/mcp/register.js';
import { resolveCaller } from '@idemgen/runtime/internal/mcp/caller.js';
import { outcomeToResult } from '@idemgen/runtime/internal/mcp/outcome.js';
import {
  CODE_RUN_KEY_DESCRIPTION,
  KEY_ARGUMENT,
  keyArgumentSchema,
} from '@idemgen/runtime/internal/tools/key-argument.js';
import type { ToolBinding, ToolCallError } from '@idemgen/runtime/tools';
import { runCode, type CodeRunOptions } from './run.js';
import { indexBindings, searchOperations } from './search.js';

const CODE_SEARCH_TOOL = 'search';
const CODE_EXECUTE_TOOL = 'execute';

function codeTools(limits: { codeBytes: number }): Record<string, unknown>[] {
  return [
    {
      name: CODE_SEARCH_TOOL,
      description:
        'Find API operations by what they do (e.g. "refund a charge"). Each result gives the name to call as api.<name>(args) inside execute, with a compact signature of its arguments.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you want to do, in a few words.' },
          limit: { type: 'integer', minimum: 1, maximum: 30, description: 'At most this many results (default 8).' },
        },
        required: ['query'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: CODE_EXECUTE_TOOL,
      description:
        "Run JavaScript: `code` is the body of an async function; `return` its result (JSON). Call operations as `await api.<name>(args)` with the arguments search shows (no idempotency_key: each write is keyed by this run's idempotency_key and its position). A failed call throws an Error with `code` and `details`. No network, modules or file system; console.log output is returned. If a run fails, send the SAME code with the SAME idempotency_key: writes that completed are replayed, not repeated. A different script needs a new key.",
      inputSchema: {
        type: 'object',
        properties: {
          code: { type: 'string', maxLength: limits.codeBytes, description: 'The body of an async function.' },
          [KEY_ARGUMENT]: keyArgumentSchema(CODE_RUN_KEY_DESCRIPTION),
        },
        required: ['code', KEY_ARGUMENT],
      },
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
  ];
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A refusal rendered as the tool runtime renders a failed call (runtime/mcp/outcome.ts). */
const refused = (error: ToolCallError): CallToolResult => outcomeToResult({ ok: false, error }) as CallToolResult;

/**
 * `source`: the runtime, or a function that builds it (serve answers `tools/list` before analysing the
 * specs; the runtime is built after that answer or at the first call, register.ts `onDemand`).
 */

export function registerCodeMode(
  server: McpServer,
  source: RuntimeSource,
  options: Omit<CodeRunOptions, 'runtime'> & {
    /** The operations this caller may call (a read-only token: the reads); search shows only these. */
    listed?: (binding: ToolBinding) => boolean;
  },
): void {
  const { limits, listed: visible, ...runOptions } = options;
  const codeBytes = limits?.codeBytes ?? 64 * 1024;
  const state = onDemand(source, (runtime) => ({
    runtime,
    index: indexBindings(visible === undefined ? runtime.list() : runtime.list().filter(visible)),
  }));
  const hidden = new Set(Object.keys(options.serverArguments ?? {}));
  const listed = codeTools({ codeBytes });
  const low = server.server;
  low.registerCapabilities({ tools: {} });
  low.setRequestHandler(ListToolsRequestSchema, async () => {
    state.soon();
    return { tools: listed as never };
  });
  low.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = asRecord(request.params.arguments);
    const { runtime, index } = await state.get();
    if (name === CODE_SEARCH_TOOL) {
      if (typeof args.query !== 'string' || args.query.trim() === '')
        return refused({
          code: 'invalid_arguments',
          message: 'search needs a non-empty query.',
          executed: 'no',
          retry_same_key: true,
        });
      const operations = searchOperations(
        index,
        args.query,
        hidden,
        typeof args.limit === 'number' ? args.limit : undefined,
      );
      return {
        content: [{ type: 'text', text: JSON.stringify({ operations }) }],
        structuredContent: { operations },
      };
    }
    if (name !== CODE_EXECUTE_TOOL) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    const bad = (message: string) =>
      refused({
        code: 'invalid_arguments',
        message: `${message} Nothing was run.`,
        executed: 'no',
        retry_same_key: true,
      });
    if (typeof args.code !== 'string') return bad('execute needs `code`, a string.');
    try {
      validateKey(args[KEY_ARGUMENT], { operation: 'execute' });
    } catch (err) {
      return bad(`${KEY_ARGUMENT}: ${(err as Error).message}.`);
    }
    const caller = resolveCaller(extra);
    if (!caller.ok) return refused(caller.error);
    const run = await runCode(
      { ...runOptions, ...(limits ? { limits } : {}), runtime },
      args.code,
      args[KEY_ARGUMENT] as string,
      {
        format: 'mcp',
        scope: caller.scope,
        signal: extra.signal,
      },
    );
    if (!run.ok) {
      const body = { error: run.error, calls: run.calls, logs: run.logs };
      return {
        content: [{ type: 'text', text: `${run.error.message}\n${JSON.stringify(body)}` }],
        structuredContent: body,
        isError: true,
      };
    }
    const body = { result: run.result, calls: run.calls, logs: run.logs };
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  });
}
