/**
 * OpenAI Agents SDK (`@openai/agents-core` `tool()`): one strict function tool per binding. The intent
 * callback gets the run context's own `context` (your app state) — not `details.toolCall.callId` (docs/concepts.md#store-rules).
 */
import { tool, type FunctionTool, type RunContext } from '@openai/agents-core';
import type { ToolRuntime } from '../runtime.js';
import { strictFormOf } from '../strict/of-binding.js';
import { argsFor, callContext, modelSchema, selected, type AdapterOptions } from './shared.js';

/** `context`: the app context you passed to `run(agent, input, { context })`. */
export type OpenAiAgentToolsOptions<C = unknown> = AdapterOptions<C | undefined>;

export function openAiAgentTools<C = unknown>(
  runtime: ToolRuntime,
  options: OpenAiAgentToolsOptions<C> = {},
): FunctionTool<C>[] {
  return selected(runtime, options.include).map((b) => {
    const parameters = modelSchema(b, strictFormOf(b).parameters, options.keySource);
    return tool<never, C, string>({
      name: b.names.openai,
      description: b.description,
      // The strict parameters (the tools/openai files' form, derived from the input schema): closed objects, every property required (nullable when optional).
      parameters: parameters as never,
      strict: true,
      execute: async (input: unknown, runContext?: RunContext<C>, details?: { signal?: AbortSignal }) => {
        const ctx = callContext(options, 'openai', runContext?.context, details?.signal);
        return JSON.stringify(await runtime.call(b.names.openai, argsFor(b, input, options.keySource), ctx));
      },
    }) as unknown as FunctionTool<C>;
  });
}
