/**
 * One scope resolver for the three MCP doors (runtime/mcp/caller.ts): registered tools, code mode and
 * withIdempotency learn the caller the same way and refuse an unresolvable one with the same answer; the
 * server's own arguments override the model's the same way in registered tools and code mode.
 */
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ScopeUnknownError } from '../../../packages/runtime/src/core/principal.js';
import { resolveCaller, withServerArguments } from '../../../packages/runtime/src/mcp/caller.js';
import { ERROR_META, withIdempotency } from '../../../packages/runtime/src/mcp/index.js';
import { registerToolRuntime, type McpToolRuntime } from '../../../packages/runtime/src/mcp/server.js';
import { createMemoryStore } from '../../../packages/runtime/src/index.js';
import { toToolError } from '../../../packages/runtime/src/tools/outcome.js';
import type { ToolBinding, ToolCallContext } from '../../../packages/runtime/src/tools/types.js';
import { registerCodeMode } from '../../../src/serve/code/register.js';

const auth = (sub?: string) => ({
  authInfo: { token: 't', clientId: 'chat-app', scopes: [], ...(sub === undefined ? {} : { extra: { sub } }) },
  signal: new AbortController().signal,
});

const binding = {
  operation: 'GET /accounts/{AccountSid}/notes',
  method: 'get',
  path: '/accounts/{AccountSid}/notes',
  clientMethod: 'listNotes',
  names: { mcp: 'listNotes', openai: 'listNotes', anthropic: 'listNotes' },
  description: 'List notes.',
  effect: 'read',
  mechanism: 'none',
  routes: [],
  inputSchema: { type: 'object', properties: { AccountSid: { type: 'string' }, q: { type: 'string' } } },
} as unknown as ToolBinding;

/** A low-level server stand-in that keeps the `tools/call` handler, and a runtime that records its calls. */
function door(register: (server: never, runtime: McpToolRuntime) => void) {
  const calls: { args: unknown; ctx: ToolCallContext | undefined }[] = [];
  const runtime: McpToolRuntime = {
    list: () => [binding],
    call: async (_name, args, ctx) => {
      calls.push({ args, ctx });
      return { ok: true, result: 'ok', was_replay: false };
    },
  };
  let handler: ((req: unknown, extra: unknown) => Promise<Record<string, unknown>>) | undefined;
  const low = {
    registerCapabilities: () => undefined,
    getClientCapabilities: () => undefined,
    getClientVersion: () => undefined,
    setRequestHandler: (schema: unknown, fn: typeof handler) => {
      if (schema === CallToolRequestSchema) handler = fn;
    },
  };
  register(low as never, runtime);
  const call = (name: string, args: Record<string, unknown>, extra: unknown) =>
    handler!({ method: 'tools/call', params: { name, arguments: args } }, extra);
  return { call, calls };
}

describe('resolveCaller', () => {
  it('the subject, never the client; no auth: no scope; a resolver and credentials when given', () => {
    expect(resolveCaller(auth('alice'))).toEqual({ ok: true, scope: 'sub:alice' });
    expect(resolveCaller({})).toEqual({ ok: true, scope: undefined });
    expect(resolveCaller(auth(), { scope: () => 'tenant:1', credentials: () => ({ api: 'k' }) })).toEqual({
      ok: true,
      scope: 'tenant:1',
      credentials: { api: 'k' },
    });
    expect(resolveCaller(auth())).toEqual({ ok: false, error: toToolError(new ScopeUnknownError(), 'write', false) });
  });

  it("server arguments override the model's for the properties the binding declares, and only those", () => {
    expect(withServerArguments({ AccountSid: 'model', q: 'x' }, binding, { AccountSid: 'AC1', Other: 1 })).toEqual({
      AccountSid: 'AC1',
      q: 'x',
    });
    expect(withServerArguments({ q: 'x' }, binding, undefined)).toEqual({ q: 'x' });
  });
});

describe('the three doors', () => {
  const refusal = toToolError(new ScopeUnknownError(), 'write', false);

  it('authenticated without a subject: the same refusal at every door, nothing runs', async () => {
    const registered = door((server, runtime) => registerToolRuntime(server, runtime));
    const r = await registered.call('listNotes', { q: 'x' }, auth());
    expect(r.structuredContent).toEqual({ error: refusal });
    const code = door((server, runtime) => registerCodeMode({ server } as never, runtime, {}));
    const c = await code.call('execute', { code: 'return 1', idempotency_key: 'code-run-key-00000001' }, auth());
    expect(c.structuredContent).toEqual({ error: refusal });
    expect([r.content, c.content]).toEqual([
      [{ type: 'text', text: `${refusal.message}\n${JSON.stringify({ error: refusal })}` }],
      [{ type: 'text', text: `${refusal.message}\n${JSON.stringify({ error: refusal })}` }],
    ]);
    expect([...registered.calls, ...code.calls]).toEqual([]);
    let ran = false;
    const tool = withIdempotency(
      async () => {
        ran = true;
        return { content: [] };
      },
      { store: createMemoryStore(), operation: 'tool:x' },
    );
    const w = await tool({ idempotency_key: 'middleware-key-000001' }, auth());
    const { message, ...facts } = refusal;
    expect(w).toMatchObject({ isError: true, content: [{ type: 'text', text: message }] });
    expect(w._meta?.[ERROR_META]).toEqual(facts);
    expect(ran).toBe(false);
  });

  it("a registered tool gets the subject's scope and the server's arguments", async () => {
    const registered = door((server, runtime) =>
      registerToolRuntime(server, runtime, { serverArguments: { AccountSid: 'AC1' } }),
    );
    await registered.call('listNotes', { AccountSid: 'model', q: 'x' }, auth('alice'));
    expect(registered.calls).toEqual([
      { args: { AccountSid: 'AC1', q: 'x' }, ctx: expect.objectContaining({ scope: 'sub:alice' }) },
    ]);
  });
});
