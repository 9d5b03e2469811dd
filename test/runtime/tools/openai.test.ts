/**
 * The `openai` package against a local fake OpenAI server returning duplicate strict-mode tool calls:
 * one effect per intent, and the exact request bodies the API received — no empty fields from strict
 * nulls, the JSON-encoded metadata parsed back into an object.
 */
import { RunContext } from '@openai/agents-core';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  openAiChatTools,
  runOpenAiResponseCalls,
  runOpenAiToolCalls,
} from '../../../packages/runtime/src/tools/adapters/openai.js';
import { openAiAgentTools } from '../../../packages/runtime/src/tools/adapters/openai-agents.js';
import { createToolRuntime, type ToolBinding, type ToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { chatText, chatToolCalls, startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai.js';
import { KEY, KEY2, shopBindings } from './helpers/shop-spec.js';
import { sqliteStore } from './helpers/sqlite.js';

let bindings: ToolBinding[];
let api: FaultServer;
let db: ReturnType<typeof sqliteStore>;
let rt: ToolRuntime;
let fake: FakeOpenAi | undefined;

beforeAll(async () => {
  bindings = await shopBindings('openai');
});
beforeEach(async () => {
  api = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
  db = sqliteStore('idemgen-openai');
  rt = createToolRuntime({
    bindings,
    baseUrl: api.url,
    store: db.store,
    auth: { token: 'sk_live_x' },
    idempotency: { pollMs: 10 },
  });
});
afterEach(async () => {
  await api.close();
  await db.cleanup();
  await fake?.close();
});

// What a strict-mode model sends: every optional field present as null, free-form objects as JSON text.
const customer = {
  body: { email: 'a@example.com', name: null, metadata: '{"order":"42"}', address: { city: 'Oslo', line2: null } },
  idempotency_key: KEY,
};
const sms = {
  AccountSid: 'AC123',
  idempotency_key: KEY2,
  body: { To: '+15551234567', Body: 'hi', From: null, StatusCallback: null, MaxPrice: null, ValidityPeriod: null },
};

describe('OpenAI Chat Completions tool loop', () => {
  it('duplicate tool calls in one response → one effect each; the API got exactly the decoded request', async () => {
    fake = await startFakeOpenAi([
      chatToolCalls([
        { id: 'call_1', name: 'createCustomer', arguments: customer },
        { id: 'call_2', name: 'createCustomer', arguments: customer },
        { id: 'call_3', name: 'createMessage', arguments: sms },
        { id: 'call_4', name: 'createMessage', arguments: sms },
      ]),
      chatText('done'),
    ]);
    const client = new OpenAI({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
    // The whole loop a user writes:
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'onboard a@example.com and text them' }];
    for (;;) {
      const reply = (await client.chat.completions.create({ model: 'gpt-test', messages, tools: openAiChatTools(rt) }))
        .choices[0]!.message;
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      messages.push(...(await runOpenAiToolCalls(rt, reply)));
    }

    expect(api.effects).toBe(2);
    const customers = api.requests.filter((r) => r.path === '/v1/customers');
    expect(customers.map((r) => r.body)).toEqual(
      Array(customers.length).fill('{"email":"a@example.com","metadata":{"order":"42"},"address":{"city":"Oslo"}}'),
    );
    expect(
      customers.every((r) => r.headers['idempotency-key'] === KEY && r.headers.authorization === 'Bearer sk_live_x'),
    ).toBe(true);
    const texts = api.requests.filter((r) => r.path === '/Accounts/AC123/Messages.json');
    expect(texts.map((r) => r.body)).toEqual(['To=%2B15551234567&Body=hi']);
    // Four tool messages went back to the model: per tool, one original and one replay.
    const toolMessages = fake.requests[1]!.body.messages as { role: string; tool_call_id?: string; content: string }[];
    const back = toolMessages
      .filter((m) => m.role === 'tool')
      .map((m) => [m.tool_call_id, JSON.parse(m.content) as { ok: boolean; was_replay: boolean }]);
    expect(back.map(([id, o]) => [id, (o as { ok: boolean }).ok])).toEqual([
      ['call_1', true],
      ['call_2', true],
      ['call_3', true],
      ['call_4', true],
    ]);
    expect([back[0]![1], back[1]![1]].map((o) => (o as { was_replay: boolean }).was_replay).sort()).toEqual([
      false,
      true,
    ]);
    expect([back[2]![1], back[3]![1]].map((o) => (o as { was_replay: boolean }).was_replay).sort()).toEqual([
      false,
      true,
    ]);
    // The model was offered the emitted strict parameters.
    const offered = (
      fake.requests[0]!.body.tools as {
        function: { name: string; strict: boolean; parameters: { additionalProperties: boolean } };
      }[]
    ).find((t) => t.function.name === 'createCustomer')!;
    expect(offered.function).toMatchObject({ strict: true, parameters: { additionalProperties: false } });
  });

  it('a 4xx reaches the model with the API message; the corrected call reuses the key: one effect', async () => {
    api.inject({
      kind: 'reject',
      status: 400,
      body: { code: 21211, message: "The 'To' number +1555 is not a valid phone number." },
    });
    const bad = { ...sms, body: { ...sms.body, To: '+1555000' } };
    const [first] = await runOpenAiToolCalls(rt, {
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'createMessage', arguments: JSON.stringify(bad) } }],
    });
    expect(JSON.parse(first!.content)).toMatchObject({
      ok: false,
      error: {
        code: 'api_error',
        status: 400,
        api_message: "The 'To' number +1555 is not a valid phone number.",
        executed: 'no',
        retry_same_key: true,
      },
    });
    expect(api.effects).toBe(0);
    const [second] = await runOpenAiToolCalls(rt, {
      tool_calls: [{ id: 'c2', type: 'function', function: { name: 'createMessage', arguments: JSON.stringify(sms) } }],
    });
    expect(JSON.parse(second!.content)).toMatchObject({ ok: true, was_replay: false });
    expect(api.effects).toBe(1);
  });

  it('intent keys: the key leaves the strict schema; distinct call ids and even differing model keys → one effect per turn', async () => {
    const options = { keySource: 'intent' as const, intent: (c: { thread: string; turn: number }) => c };
    const params = openAiChatTools(rt, options).find((t) => t.function.name === 'createMessage')!.function
      .parameters as { properties: object; required: string[] };
    expect(Object.keys(params.properties)).not.toContain('idempotency_key');
    expect(params.required).not.toContain('idempotency_key');
    const { idempotency_key: _k, ...noKey } = sms;
    const msg = (id: string, args: unknown) => ({
      tool_calls: [{ id, type: 'function', function: { name: 'createMessage', arguments: JSON.stringify(args) } }],
    });
    await runOpenAiToolCalls(rt, msg('a', noKey), options, { thread: 't', turn: 1 });
    const [again] = await runOpenAiToolCalls(
      rt,
      msg('b', { ...noKey, idempotency_key: 'model-key-ignored-0001' }),
      options,
      { thread: 't', turn: 1 },
    );
    expect(JSON.parse(again!.content)).toMatchObject({ ok: true, was_replay: true });
    await runOpenAiToolCalls(rt, msg('c', noKey), options, { thread: 't', turn: 2 });
    expect(api.effects).toBe(2);
  });

  it('Responses API: function_call items → function_call_output items, duplicates deduped', async () => {
    const item = (id: string) => ({
      type: 'function_call',
      call_id: id,
      name: 'createMessage',
      arguments: JSON.stringify(sms),
    });
    const out = await runOpenAiResponseCalls(rt, [item('fc_1'), { type: 'message' }, item('fc_2')]);
    expect(out.map((o) => o.call_id)).toEqual(['fc_1', 'fc_2']);
    expect(api.effects).toBe(1);
  });

  it("@openai/agents-core tool(): invoked twice by the SDK's own FunctionTool → one effect", async () => {
    const tools = openAiAgentTools(rt);
    const send = tools.find((t) => t.name === 'createMessage')!;
    expect(send.strict).toBe(true);
    const ctx = new RunContext({ user: 'u1' });
    const a = JSON.parse(String(await send.invoke(ctx, JSON.stringify(sms)))) as { ok: boolean; was_replay: boolean };
    const b = JSON.parse(String(await send.invoke(ctx, JSON.stringify(sms)))) as { ok: boolean; was_replay: boolean };
    expect([a.was_replay, b.was_replay]).toEqual([false, true]);
    expect(api.effects).toBe(1);
    expect(api.requests[0]!.body).toBe('To=%2B15551234567&Body=hi');
  });
});
