/**
 * A real MCP server (low-level SDK `Server`) whose tool list is what `emitTools` generates for a small
 * messaging plan, and whose side-effecting tool is wrapped with `withIdempotency`. Side effects are
 * counted by the caller-supplied `recordEffect` (a file line in the stdio child, a counter in-process).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitTools } from '../../../src/emit/tools/index.js';
import type { DedupStore } from '../../../packages/runtime/src/index.js';
import { withIdempotency } from '../../../packages/runtime/src/mcp/index.js';
import { entry, planOf, toolOp } from '../../helpers/plan.js';

export interface FixtureOptions {
  store: DedupStore;
  /** Performs the side effect; returns its sequence number. */
  recordEffect: (args: Record<string, unknown>) => number;
  delayMs?: number;
  waitMs?: number;
  /** withIdempotency's key source (host intent in `_meta`). */
  keySource?: 'model' | 'intent';
}

const sendMessage = toolOp('send_message', {
  type: 'object',
  properties: { channel: { type: 'string' }, text: { type: 'string' } },
  required: ['channel', 'text'],
});
const listMessages = toolOp('list_messages', { type: 'object', properties: { channel: { type: 'string' } } });

/** The emitted MCP tools/list of the fixture plan (the generated schema the server really serves). */
function fixtureTools(): { tools: Record<string, unknown>[] } {
  const plan = planOf('fixture', [
    entry(listMessages, 'none'),
    entry(sendMessage, 'fail-closed', { ttlSeconds: 86_400 }),
  ]);
  const file = emitTools(plan, resolveConfig()).files.find((f) => f.path === 'tools/mcp/fixture.tools.json');
  return JSON.parse(file?.contents ?? '{"tools":[]}') as { tools: Record<string, unknown>[] };
}

export function createFixtureServer(opts: FixtureOptions): Server {
  const server = new Server({ name: 'idemgen-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tools = fixtureTools();
  const send = withIdempotency(
    async (args: Record<string, unknown>): Promise<CallToolResult> => {
      const n = opts.recordEffect(args);
      await new Promise((r) => setTimeout(r, opts.delayMs ?? 0));
      if (args.text === 'fail') {
        // A tool-level failure is a completed outcome: stored and replayed like a success.
        return {
          content: [{ type: 'text', text: `channel ${String(args.channel)} rejected message #${n}` }],
          isError: true,
        };
      }
      return {
        content: [{ type: 'text', text: `sent message #${n} to ${String(args.channel)}` }],
        structuredContent: { messageId: n, channel: args.channel },
      };
    },
    {
      store: opts.store,
      operation: 'tool:send_message',
      ttlSeconds: 86_400,
      waitMs: opts.waitMs ?? 5_000,
      pollMs: 20,
      ...(opts.keySource ? { keySource: opts.keySource } : {}),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => tools as never);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (request.params.name === 'send_message') return send(args, extra);
    if (request.params.name === 'list_messages') return { content: [{ type: 'text', text: '[]' }] };
    return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true };
  });
  return server;
}
