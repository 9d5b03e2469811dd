/**
 * AI SDK `generateText` with its own mock model (`ai/test`): the model emits the same tool call twice in one
 * step and again in a later step, each with a new tool-call id — one effect on the API, the repeats replays.
 */
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiSdkTools } from '../../../packages/runtime/src/tools/adapters/ai-sdk.js';
import { createToolRuntime, type ToolBinding, type ToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { KEY, shopBindings } from './helpers/shop-spec.js';
import { sqliteStore } from './helpers/sqlite.js';

let bindings: ToolBinding[];
let api: FaultServer;
let db: ReturnType<typeof sqliteStore>;
let rt: ToolRuntime;

beforeAll(async () => {
  bindings = await shopBindings('ai-sdk');
});
beforeEach(async () => {
  api = await startFaultServer();
  db = sqliteStore('idemgen-ai');
  rt = createToolRuntime({ bindings, baseUrl: api.url, store: db.store, idempotency: { pollMs: 10 } });
});
afterEach(async () => {
  await api.close();
  await db.cleanup();
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const call = (id: string, input: unknown) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: 'createNote',
  input: JSON.stringify(input),
});
const toolStep = (...content: ReturnType<typeof call>[]) => ({
  content,
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});
const textStep = {
  content: [{ type: 'text' as const, text: 'done' }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage,
  warnings: [],
};

function outcomes(result: Awaited<ReturnType<typeof generateText>>): { ok: boolean; was_replay?: boolean }[][] {
  return result.steps.map((s) => s.toolResults.map((r) => r.output as { ok: boolean; was_replay?: boolean }));
}

describe('AI SDK tool set', () => {
  it('model key: twice in one step and once more in a later step → one effect', async () => {
    const args = { body: { text: 'ship order 42' }, idempotency_key: KEY };
    const model = new MockLanguageModelV3({
      doGenerate: [toolStep(call('c1', args), call('c2', args)), toolStep(call('c3', args)), textStep],
    });
    const result = await generateText({ model, tools: aiSdkTools(rt), prompt: 'ship it', stopWhen: stepCountIs(5) });
    expect(api.effects).toBe(1);
    const [first, second] = outcomes(result);
    expect(first!.map((o) => o.was_replay).sort()).toEqual([false, true]);
    expect(second).toEqual([expect.objectContaining({ ok: true, was_replay: true })]);
    expect(result.text).toBe('done');
    // The model was offered the generated schema, with the required key.
    const offered = model.doGenerateCalls[0]!.tools!.find((t) => t.name === 'createNote') as {
      inputSchema: { required: string[] };
    };
    expect(offered.inputSchema.required).toContain('idempotency_key');
  });

  it('intent key from experimental_context: the key is hidden from the model; distinct call ids, one intent → one effect', async () => {
    const tools = aiSdkTools(rt, { keySource: 'intent', intent: (ctx) => ctx as Record<string, string> });
    const args = { body: { text: 'ship order 42' } };
    const run = (turn: string) =>
      generateText({
        model: new MockLanguageModelV3({
          doGenerate: [
            toolStep(call(`a-${turn}`, args), call(`b-${turn}`, args)),
            toolStep(call(`c-${turn}`, args)),
            textStep,
          ],
        }),
        tools,
        prompt: 'ship it',
        stopWhen: stepCountIs(5),
        experimental_context: { thread: 't-1', turn },
      });
    const result = await run('1');
    expect(api.effects).toBe(1);
    expect(
      outcomes(result)
        .flat()
        .filter((o) => o.was_replay === false),
    ).toHaveLength(1);
    await run('2'); // a new turn is a new intent
    expect(api.effects).toBe(2);
    const schema = (tools.createNote as { inputSchema: { jsonSchema: { properties: object } } }).inputSchema.jsonSchema;
    expect(Object.keys(schema.properties)).toEqual(['body']);
  });

  it('a tool error reaches the model as an outcome it can act on, not an exception', async () => {
    api.inject({ kind: 'reject', status: 422, body: { error: { code: 'too_long', message: 'text is too long' } } });
    const args = { body: { text: 'x' }, idempotency_key: KEY };
    const model = new MockLanguageModelV3({
      doGenerate: [toolStep(call('c1', args)), toolStep(call('c2', args)), textStep],
    });
    const result = await generateText({ model, tools: aiSdkTools(rt), prompt: 'x', stopWhen: stepCountIs(5) });
    expect(outcomes(result)[0]).toEqual([
      {
        ok: false,
        error: expect.objectContaining({ code: 'api_error', api_message: 'text is too long', executed: 'no' }),
      },
    ]);
    expect(outcomes(result)[1]).toEqual([expect.objectContaining({ ok: true, was_replay: false })]);
    expect(api.effects).toBe(1);
  });
});
