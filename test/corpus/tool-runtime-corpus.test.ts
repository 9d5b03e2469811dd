/**
 * What an agent's tool calls must do, on the real specs (shared corpus): Twilio's create-message and Stripe's create-customer
 * called with what an OpenAI strict-mode model sends (every optional field null, `metadata` as JSON text) —
 * the request the API receives has no empty fields and a real metadata object; every binding's schema
 * compiles for validation; credentials go where the spec's security scheme says.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiPlan } from '../../src/classify/types.js';
import { resolveConfig } from '../../src/config/types.js';
import { buildToolBindings } from '../../src/emit/handlers/bindings.js';
import { createMemoryStore } from '../../packages/runtime/src/index.js';
import { createToolRuntime, type ToolBinding } from '../../packages/runtime/src/tools/index.js';
import { validateArguments } from '../../packages/runtime/src/tools/validate.js';
import { loadApis, planApis } from '../emit/client/helpers/spec-plan.js';
import { CORPUS } from '../helpers/corpus.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { KEY } from '../runtime/tools/helpers/shop-spec.js';

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
let twilio: ToolBinding[];
let stripe: ToolBinding[];
let api: FaultServer;

async function plan(file: string): Promise<ApiPlan> {
  const { apis, errors } = await loadApis([file], join(CORPUS, 'openapi'));
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return planApis(apis)[0]!;
}

/** Every property of the object schema at `body`, null — what strict mode sends for "not given". */
function allNull(binding: ToolBinding): Record<string, null> {
  const body = (binding.inputSchema.properties as Record<string, { properties?: object }>).body;
  return Object.fromEntries(Object.keys(body?.properties ?? {}).map((k) => [k, null]));
}

beforeAll(async () => {
  twilio = buildToolBindings(await plan('twilio_api_v2010.json'), resolveConfig());
  stripe = buildToolBindings(await plan('stripe-spec3.2023-09-12.yaml'), resolveConfig());
  api = await startFaultServer();
});
afterAll(() => api.close());

describe('real specs', () => {
  it('Twilio create-message: 25 optional fields sent as null → only the given ones on the wire, basic auth from config', async () => {
    const rt = createToolRuntime({
      bindings: twilio,
      baseUrl: api.url,
      store: createMemoryStore(),
      auth: { accountSid_authToken: { username: 'AC123', password: 'tok' } },
    });
    const b = rt.find('createMessage')!;
    expect(Object.keys(allNull(b))).toHaveLength(25);
    const out = await rt.call(
      'createMessage',
      {
        AccountSid: SID,
        idempotency_key: KEY,
        body: { ...allNull(b), To: '+15551234567', From: '+15557654321', Body: 'Your order shipped' },
      },
      { format: 'openai' },
    );
    expect(out, JSON.stringify(out)).toMatchObject({ ok: true, was_replay: false });
    const req = api.requests.at(-1)!;
    expect(req.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(new URLSearchParams(req.body).toString()).toBe(
      'To=%2B15551234567&From=%2B15557654321&Body=Your+order+shipped',
    );
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('AC123:tok').toString('base64')}`);
  });

  it('Stripe create-customer: metadata sent as JSON text is a nested form object; the native key in its header', async () => {
    const rt = createToolRuntime({ bindings: stripe, baseUrl: api.url, auth: { bearerAuth: 'sk_test_1' } });
    const b = rt.find('postCustomers')!;
    expect(b).toMatchObject({ mechanism: 'native-key', carrier: { in: 'header', name: 'Idempotency-Key' } });
    const out = await rt.call(
      'postCustomers',
      {
        idempotency_key: KEY,
        body: { ...allNull(b), email: 'a@example.com', metadata: '{"order_id":"42"}' },
      },
      { format: 'openai' },
    );
    expect(out).toMatchObject({ ok: true });
    const req = api.requests.at(-1)!;
    expect(decodeURIComponent(req.body)).toBe('email=a@example.com&metadata[order_id]=42');
    expect(req.headers).toMatchObject({ 'idempotency-key': KEY, authorization: 'Bearer sk_test_1' });
  });

  it("an account id that fails the spec's pattern is refused before any request, naming the argument", async () => {
    const rt = createToolRuntime({ bindings: twilio, baseUrl: api.url, store: createMemoryStore() });
    const before = api.requests.length;
    const out = await rt.call('createMessage', {
      AccountSid: 'AC123',
      idempotency_key: KEY,
      body: { To: '+15551234567', Body: 'x' },
    });
    expect(out).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_arguments',
        executed: 'no',
        issues: expect.arrayContaining([
          { pointer: '/AccountSid', message: 'must match pattern "^AC[0-9a-fA-F]{32}$"' },
        ]),
      },
    });
    expect(api.requests.length).toBe(before);
  });

  it("every binding's input schema compiles for validation (Stripe and Twilio)", async () => {
    const refused: string[] = [];
    for (const b of [...twilio, ...stripe]) {
      const issues = await validateArguments(b, {});
      if (issues.some((i) => i.message.includes('could not be compiled'))) refused.push(b.operation);
    }
    expect(refused).toEqual([]);
    expect(stripe).toHaveLength(468);
  });
});
