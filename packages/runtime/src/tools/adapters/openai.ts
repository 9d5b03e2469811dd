/**
 * OpenAI: Chat Completions function tools and Responses API function tools (strict mode: the tools/openai
 * files' parameters, derived from each binding's input schema), and the loop step that executes a response's tool calls through the runtime. No
 * import of `openai`: the shapes are the API's JSON, so any client version (or none) works.
 */
import { invalidArguments } from '../outcome.js';
import type { ToolRuntime } from '../runtime.js';
import { strictFormOf } from '../strict/of-binding.js';
import type { ToolBinding, ToolOutcome } from '../types.js';
import { argsFor, callContext, modelSchema, selected, type AdapterOptions } from './shared.js';

type Obj = Record<string, unknown>;

/** The app's own context for intent/scope callbacks (a thread id, the user), given per loop step. */
export type OpenAiToolsOptions<C = unknown> = AdapterOptions<C>;

function parameters(b: ToolBinding, o: OpenAiToolsOptions<never>): Obj {
  return modelSchema(b, strictFormOf(b).parameters, o.keySource);
}

export function openAiChatTools(runtime: ToolRuntime, options: OpenAiToolsOptions<never> = {}) {
  return selected(runtime, options.include).map((b) => ({
    type: 'function' as const,
    function: {
      name: b.names.openai,
      description: b.description,
      parameters: parameters(b, options),
      strict: true,
    },
  }));
}

export function openAiResponsesTools(runtime: ToolRuntime, options: OpenAiToolsOptions<never> = {}) {
  return selected(runtime, options.include).map((b) => ({
    type: 'function' as const,
    name: b.names.openai,
    description: b.description,
    parameters: parameters(b, options),
    strict: true,
  }));
}

async function runOne<C>(
  runtime: ToolRuntime,
  name: string,
  text: string,
  o: OpenAiToolsOptions<C>,
  context: C,
): Promise<ToolOutcome> {
  let args: unknown;
  try {
    args = JSON.parse(text === '' ? '{}' : text);
  } catch {
    return invalidArguments('The arguments are not valid JSON; nothing was executed.');
  }
  const b = runtime.find(name, 'openai');
  return runtime.call(name, b === undefined ? args : argsFor(b, args, o.keySource), callContext(o, 'openai', context));
}

interface ChatToolCall {
  id: string;
  type: string;
  function?: { name: string; arguments: string };
}

/**
 * Executes every function tool call of an assistant message (in parallel: duplicates with one key wait
 * for the first and replay it) and returns the `role: 'tool'` messages to append, in call order.
 */
export async function runOpenAiToolCalls<C = unknown>(
  runtime: ToolRuntime,
  message: { tool_calls?: ChatToolCall[] | null },
  options: OpenAiToolsOptions<C> = {},
  context?: C,
): Promise<{ role: 'tool'; tool_call_id: string; content: string }[]> {
  const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function' && c.function !== undefined);
  const outcomes = await Promise.all(
    calls.map((c) => runOne(runtime, c.function!.name, c.function!.arguments, options, context as C)),
  );
  return calls.map((c, i) => ({ role: 'tool' as const, tool_call_id: c.id, content: JSON.stringify(outcomes[i]) }));
}

/** The Responses API twin: `function_call` items of `response.output` → `function_call_output` items. */
export async function runOpenAiResponseCalls<C = unknown>(
  runtime: ToolRuntime,
  output: readonly { type: string; call_id?: string; name?: string; arguments?: string }[],
  options: OpenAiToolsOptions<C> = {},
  context?: C,
): Promise<{ type: 'function_call_output'; call_id: string; output: string }[]> {
  const calls = output.filter(
    (item) => item.type === 'function_call' && item.call_id !== undefined && item.name !== undefined,
  );
  const outcomes = await Promise.all(
    calls.map((c) => runOne(runtime, c.name!, c.arguments ?? '{}', options, context as C)),
  );
  return calls.map((c, i) => ({
    type: 'function_call_output' as const,
    call_id: c.call_id!,
    output: JSON.stringify(outcomes[i]),
  }));
}
