import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AIMessage, type ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command, END, MemorySaver, MessagesAnnotation, START, StateGraph, interrupt } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { createSqliteStore } from '../../src/runtime/sqlite-store.js';
import type { DedupStore } from '../../src/runtime/store.js';
import { idempotentInNode } from '../../src/runtime/langgraph/index.js';
import { sendMessage, startCountServer, type CountServer } from './support/count-server.js';
import { freshDir, migratedSqliteFile } from './support/sqlite-file.js';

/**
 * A tool handler run by the prebuilt ToolNode: two parallel tool calls in one model message, the tool
 * asks for confirmation with interrupt() after sending. Each confirmation re-runs the whole ToolNode.
 */
let server: CountServer;
let store: DedupStore;

beforeAll(async () => {
  server = await startCountServer();
  store = createSqliteStore({ filename: migratedSqliteFile(freshDir('tool-node')) });
});
afterAll(async () => {
  await store.close();
  await server.close();
});

function agentGraph(byToolCallId: boolean) {
  const send = idempotentInNode(
    (url: string, message: { to: string; body: string }, _callId: string) => sendMessage(url, message),
    {
      operation: 'tool:send_email',
      store,
      args: (_url, message) => message,
      discriminator: byToolCallId ? (_url, _message, callId) => callId : undefined,
    },
  );
  const sendTool = tool(
    async ({ to }, runtime: { toolCallId?: string }) => {
      const out = await send(server.url, { to, body: `tool-node ${String(byToolCallId)}` }, runtime.toolCallId ?? '');
      interrupt(`confirm ${to}`);
      return `${out.result.messageId} replay=${String(out.wasReplay)}`;
    },
    { name: 'send_email', description: 'Send an email', schema: z.object({ to: z.string() }) },
  );
  const calls = [
    { id: 'call_a', name: 'send_email', args: { to: 'a@example.com' } },
    { id: 'call_b', name: 'send_email', args: { to: 'b@example.com' } },
  ];
  return new StateGraph(MessagesAnnotation)
    .addNode('model', () => ({ messages: [new AIMessage({ content: '', tool_calls: calls })] }))
    .addNode('tools', new ToolNode([sendTool]))
    .addEdge(START, 'model')
    .addEdge('model', 'tools')
    .addEdge('tools', END)
    .compile({ checkpointer: new MemorySaver() });
}

describe('idempotentInNode inside a ToolNode tool handler', () => {
  for (const byToolCallId of [false, true]) {
    it(`sends each tool call once across two resumes (${byToolCallId ? 'tool_call_id' : 'call order'} key)`, async () => {
      const graph = agentGraph(byToolCallId);
      const cfg = { configurable: { thread_id: `tool-node-${String(byToolCallId)}` } };
      await graph.invoke({ messages: [] }, cfg);
      await graph.invoke(new Command({ resume: 'yes' }), cfg);
      const final = await graph.invoke(new Command({ resume: 'yes' }), cfg);
      const marker = `tool-node ${String(byToolCallId)}`;
      const delivered = server.received.filter((m) => (m as { body: string }).body === marker) as { to: string }[];
      expect(delivered.map((m) => m.to).sort()).toEqual(['a@example.com', 'b@example.com']);
      const results = final.messages.slice(1).map((m) => (m as ToolMessage).content);
      expect(results).toHaveLength(2);
      // Both results are replays of the two original sends (a sibling tool still in flight is waited for).
      expect(results.every((c) => /^msg-\d+ replay=true$/.test(String(c)))).toBe(true);
      expect(new Set(results).size).toBe(2);
    });
  }
});
