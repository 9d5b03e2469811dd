/**
 * What reaches the wire: OpenAI strict-mode arguments (optional fields as null, free-form objects as JSON
 * text) decoded by the input schema, flat arguments routed to path/query/header/body, and credentials
 * from the server's configuration.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createToolRuntime,
  decodeArguments,
  parseApiError,
  type ToolBinding,
} from '../../../packages/runtime/src/tools/index.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { KEY, shopBindings } from './helpers/shop-spec.js';
import { strictFormOf } from '../../../packages/runtime/src/tools/strict/of-binding.js';

let bindings: ToolBinding[];
let api: FaultServer;
const byName = (n: string) => bindings.find((b) => b.names.openai === n)!;

beforeAll(async () => {
  bindings = await shopBindings('decode-route');
});
beforeEach(async () => {
  api = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
});
afterEach(() => api.close());

describe('OpenAI strict-mode decoding', () => {
  it('the strict form derived from the binding encodes the free-form object', () => {
    expect(strictFormOf(byName('createCustomer')).encoded).toEqual(['/properties/body/properties/metadata']);
  });

  it('null for optional fields → absent (nested too); JSON-encoded metadata → an object; required nulls stay', () => {
    const args = {
      body: {
        email: 'a@example.com',
        name: null,
        metadata: '{"order":"42","tier":"gold"}',
        address: { city: 'Oslo', line2: null },
      },
      idempotency_key: KEY,
    };
    expect(decodeArguments(byName('createCustomer'), args, 'openai')).toEqual({
      body: { email: 'a@example.com', metadata: { order: '42', tier: 'gold' }, address: { city: 'Oslo' } },
      idempotency_key: KEY,
    });
    expect(decodeArguments(byName('createCustomer'), { body: { email: null } }, 'openai')).toEqual({
      body: { email: null },
    });
  });

  it('other dialects pass through untouched', () => {
    const args = { body: { email: 'a@example.com', name: null } };
    expect(decodeArguments(byName('createCustomer'), args, 'mcp')).toBe(args);
  });

  it('a form write with strict nulls sends no empty fields', async () => {
    const store = (await import('../../../packages/runtime/src/index.js')).createMemoryStore();
    const withStore = createToolRuntime({ bindings, baseUrl: api.url, store });
    const out = await withStore.call(
      'createMessage',
      {
        AccountSid: 'AC123',
        idempotency_key: KEY,
        body: {
          To: '+15551234567',
          Body: 'hi',
          From: null,
          StatusCallback: null,
          MaxPrice: null,
          ValidityPeriod: null,
        },
      },
      { format: 'openai' },
    );
    expect(out).toMatchObject({ ok: true });
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      path: '/Accounts/AC123/Messages.json',
      body: 'To=%2B15551234567&Body=hi',
    });
    expect(api.requests[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('without a store, a store-deduped write refuses before any request', async () => {
    const rt = createToolRuntime({ bindings, baseUrl: api.url });
    const out = await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY });
    expect(out).toMatchObject({
      ok: false,
      error: { code: 'tool_error', message: expect.stringContaining('needs a dedup store') },
    });
    expect(api.requests).toHaveLength(0);
  });
});

describe('OpenAI strict-mode decoding: hostile input', () => {
  it('an argument named `__proto__` stays an own property; the prototype is untouched', () => {
    const args = JSON.parse('{"body":{"email":"a@example.com","__proto__":{"polluted":true}}}') as unknown;
    const out = decodeArguments(byName('createCustomer'), args, 'openai') as { body: object };
    expect(Object.keys(out.body)).toEqual(['email', '__proto__']);
    expect(Object.getPrototypeOf(out.body)).toBe(Object.prototype);
    expect((out.body as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('a malformed percent-encoded `$ref` is read as text, not thrown as a URIError', () => {
    const b = byName('createCustomer');
    const hostile: ToolBinding = {
      ...b,
      inputSchema: {
        type: 'object',
        properties: { body: { $ref: '#/$defs/%E0%A4%A' } },
        $defs: { '%E0%A4%A': { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    };
    expect(decodeArguments(hostile, { body: { n: 1, x: null } }, 'openai')).toEqual({ body: { n: 1 } });
  });
});

describe('routing and credentials', () => {
  it('path (encoded), query, header parameters, and every scheme of the chosen requirement', async () => {
    const rt = createToolRuntime({
      bindings,
      baseUrl: api.url,
      auth: { token: 'sk_1', account: 'acct_9' },
      headers: { 'user-agent': 'agent/1' },
    });
    const out = await rt.call('getOrder', { order_id: 'a/b c', expand: ['items', 'customer'], 'X-Trace': 't-1' });
    expect(out).toMatchObject({ ok: true, was_replay: false });
    const req = api.requests[0]!;
    expect(req.path).toBe('/orders/a%2Fb%20c');
    expect(req.headers).toMatchObject({
      authorization: 'Bearer sk_1',
      'x-account': 'acct_9',
      'x-trace': 't-1',
      'user-agent': 'agent/1',
    });
  });

  it('the key never travels as a body field or query parameter of a store-deduped write', async () => {
    const store = (await import('../../../packages/runtime/src/index.js')).createMemoryStore();
    const rt = createToolRuntime({ bindings, baseUrl: api.url, store, auth: { bearer: 'sk_2' } });
    await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY });
    expect(api.requests[0]).toMatchObject({ body: '{"text":"x"}' });
    expect(api.requests[0]!.headers).toMatchObject({ authorization: 'Bearer sk_2' });
    expect(api.requests[0]!.headers['idempotency-key']).toBeUndefined();
  });
});

describe('parseApiError', () => {
  it.each([
    [
      { error: { code: 'card_declined', message: 'Your card was declined.' } },
      { code: 'card_declined', message: 'Your card was declined.' },
    ],
    [
      { code: 21211, message: 'Invalid To' },
      { code: '21211', message: 'Invalid To' },
    ],
    [
      { message: 'Validation Failed', errors: [{ code: 'missing_field', field: 'title' }] },
      { message: 'Validation Failed' },
    ],
    [{ errors: [{ code: 'E1', message: 'a' }, { message: 'b' }] }, { code: 'E1', message: 'a; b' }],
    [
      { error: 'invalid_grant', error_description: 'expired' },
      { code: 'invalid_grant', message: 'expired' },
    ],
    ['plain text', { message: 'plain text' }],
  ])('%j', (body, expected) => {
    expect(parseApiError(body)).toEqual(expected);
  });
});
