/**
 * Vercel AI SDK: the runtime's tools as a `ToolSet` for `generateText` / `streamText`. Each tool's
 * `execute` runs the call through the runtime and returns the `ToolOutcome` (errors included), so the model
 * reads `was_replay`, `executed` and `retry_same_key` instead of a bare exception. The intent callback gets
 * the call's `experimental_context`; the tool-call id is deliberately not offered (docs/concepts.md#store-rules).
 */
import { jsonSchema, tool, type Tool, type ToolSet } from 'ai';
import type { ToolRuntime } from '../runtime.js';
import { argsFor, callContext, modelSchema, selected, type AdapterOptions } from './shared.js';

/** `context`: the `experimental_context` passed to `generateText` / `streamText`. */
export type AiSdkToolsOptions = AdapterOptions<unknown>;

export function aiSdkTools(runtime: ToolRuntime, options: AiSdkToolsOptions = {}): ToolSet {
  const tools: ToolSet = {};
  for (const b of selected(runtime, options.include)) {
    const schema = modelSchema(b, b.inputSchema, options.keySource);
    tools[b.names.openai] = tool({
      description: b.description,
      inputSchema: jsonSchema<Record<string, unknown>>(schema as Parameters<typeof jsonSchema>[0] & object),
      execute: (input, { experimental_context, abortSignal }) =>
        runtime.call(
          b.names.openai,
          argsFor(b, input, options.keySource),
          callContext(options, 'ai-sdk', experimental_context, abortSignal),
        ),
    }) as Tool;
  }
  return tools;
}
