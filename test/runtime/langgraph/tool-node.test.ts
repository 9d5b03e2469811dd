import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AIMessage, type ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command, END, MemorySaver, MessagesAnnotation, START, StateGraph, interrupt } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import type { DedupStore } from '../../../packages/runtime/src/store/types.js';
import { idempotentInNode, type NodeConfig } from '../../../packages/runtime/src/langgraph/index.js';
import type { FaultServer } from '../../helpers/fault-server.js';
import { sendMessage, startMailProvider } from './support/mail-provider.js';
import { freshDir, migratedSqliteFile } from './support/sqlite-file.js';

/**
 * Tool handlers run by the prebuilt ToolNode: two parallel tool calls in one model message. The tool
 * runtime (the handler's second argument) carries the tool_call_id and the attempt number; plain
 * `getConfig()` inside a tool carries neither, so there the key falls back to call order.
 */
let server: FaultServer;
let store: DedupStore;

beforeAll(async () => {
  server = await startMailProvider();
  store = createSqliteStore({ filename: migratedSqliteFile(freshDir('tool-node')) });
});
afterAll(async () => {
  await store.close();
  await server.close();
});

type Mode = 'getConfig' | 'tool runtime';

function agentGraph(marker: string, mode: Mode, after: (to: string) => void, retries = 1) {
  const send = idempotentInNode(sendMessage, { operation: 'tool:send_email', store, args: (_url, message) => message });
  const sendTool = tool(
    async ({ to }, runtime: NodeConfig) => {
      const call = mode === 'getConfig' ? send : send.withConfig(runtime);
      const out = await call(server.url, { to, body: marker });
      after(to);
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
    .addNode('tools', new ToolNode([sendTool], { handleToolErrors: false }), {
      retryPolicy: { maxAttempts: retries, initialInterval: 1, jitter: false, logWarning: false },
    })
    .addEdge(START, 'model')
    .addEdge('model', 'tools')
    .addEdge('tools', END)
    .compile({ checkpointer: new MemorySaver() });
}

const delivered = (marker: string): string[] =>
  (server.received as { to: string; body: string }[])
    .filter((m) => m.body === marker)
    .map((m) => m.to)
    .sort();

describe('idempotentInNode inside a ToolNode tool handler', () => {
  for (const mode of ['getConfig', 'tool runtime'] as const) {
    it(`sends each tool call once when the tools interrupt and are resumed twice (${mode})`, async () => {
      const marker = `tool-node interrupt ${mode}`;
      const graph = agentGraph(marker, mode, (to) => interrupt(`confirm ${to}`));
      const cfg = { configurable: { thread_id: `tool-node-${mode}` } };
      await graph.invoke({ messages: [] }, cfg);
      await graph.invoke(new Command({ resume: 'yes' }), cfg);
      const final = await graph.invoke(new Command({ resume: 'yes' }), cfg);
      expect(delivered(marker)).toEqual(['a@example.com', 'b@example.com']);
      const results = final.messages.slice(1).map((m) => String((m as ToolMessage).content));
      // Both results are replays of the two original sends (a sibling still in flight is waited for).
      expect(results.every((c) => /^msg-\d+ replay=true$/.test(c))).toBe(true);
      expect(new Set(results).size).toBe(2);
    });
  }

  it('sends each tool call once when the ToolNode is retried after a failure (tool runtime)', async () => {
    const marker = 'tool-node retry';
    let failures = 0;
    const graph = agentGraph(
      marker,
      'tool runtime',
      () => {
        if (failures++ === 0) throw new Error('transient failure after the send');
      },
      3,
    );
    const final = await graph.invoke({ messages: [] }, { configurable: { thread_id: 'tool-node-retry' } });
    expect(failures).toBeGreaterThan(2);
    expect(delivered(marker)).toEqual(['a@example.com', 'b@example.com']);
    expect(final.messages).toHaveLength(3);
  });
});
