/**
 * The tool runtime against a real node:http API that counts effects and a real SQLite dedup store:
 * one effect per intent, API errors that reach the model with the key left free, OpenAI strict-mode
 * arguments decoded before they reach the wire.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createToolRuntime, type ToolBinding, type ToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { jsonAnswer, refusedUrl, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { compensateSaga, createHttpCaller } from '../../../packages/runtime/src/index.js';
import { KEY, KEY2, shopBindings } from './helpers/shop-spec.js';
import { sqliteStore } from './helpers/sqlite.js';

let bindings: ToolBinding[];
let api: FaultServer;
let db: ReturnType<typeof sqliteStore>;
let rt: ToolRuntime;

beforeAll(async () => {
  bindings = await shopBindings('runtime-tools');
});
beforeEach(async () => {
  api = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
  db = sqliteStore('idemgen-tools');
  rt = createToolRuntime({
    bindings,
    baseUrl: api.url,
    store: db.store,
    auth: { token: 'sk_test_1', account: 'acct_9' },
    idempotency: { pollMs: 10 },
  });
});
afterEach(async () => {
  await api.close();
  await db.cleanup();
});
afterAll(() => undefined);

const sms = { AccountSid: 'AC123', body: { To: '+15551234567', Body: 'hi' } };

describe('one effect per intent', () => {
  it('a fail-closed write called twice with one key: one effect, the second a replay with the original time', async () => {
    const first = await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY });
    const second = await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY });
    expect(api.effects).toBe(1);
    expect(first).toMatchObject({ ok: true, was_replay: false, result: { id: 'obj_1' } });
    expect(second).toMatchObject({ ok: true, was_replay: true, result: { id: 'obj_1' } });
    expect(second.ok && first.ok && second.original_called_at).toBe(first.ok && first.original_called_at);
  });

  it('the same key with different arguments is a conflict, nothing sent', async () => {
    await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY });
    const out = await rt.call('createNote', { body: { text: 'y' }, idempotency_key: KEY });
    expect(out).toMatchObject({
      ok: false,
      error: { code: 'idempotency_conflict', executed: 'no', retry_same_key: false },
    });
    expect(api.requests).toHaveLength(1);
  });

  it("OP-1: the key rides in the API's header, the API dedupes and reports the replay; no store row", async () => {
    const args = { body: { email: 'a@example.com' }, idempotency_key: KEY };
    const a = await rt.call('createCustomer', args);
    const b = await rt.call('createCustomer', args);
    expect(api.effects).toBe(1);
    expect(api.requests.map((r) => r.headers['idempotency-key'])).toEqual([KEY, KEY]);
    expect(a).toMatchObject({ ok: true, was_replay: false });
    expect(b).toMatchObject({ ok: true, was_replay: true });
    expect(await db.store.get({ scope: '', key: KEY })).toBeUndefined();
  });

  it('OP-1 with a principal scope: each user gets a wire key of their own, stable across their retries', async () => {
    const args = { body: { email: 'a@example.com' }, idempotency_key: KEY };
    const alice = await rt.call('createCustomer', args, { scope: 'sub:alice' });
    const bob = await rt.call('createCustomer', args, { scope: 'sub:bob' });
    const aliceAgain = await rt.call('createCustomer', args, { scope: 'sub:alice' });
    expect([alice, bob, aliceAgain].map((o) => o.ok && o.was_replay)).toEqual([false, false, true]);
    expect(api.effects).toBe(2);
    const wire = api.requests.map((r) => r.headers['idempotency-key']);
    expect(wire[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(wire).size).toBe(2);
  });

  it('OP-5: a saga row, one effect, a replay returns the recorded result', async () => {
    const a = await rt.call('createWebhook', { body: { url: 'https://h.example/x' }, idempotency_key: KEY });
    const b = await rt.call('createWebhook', { body: { url: 'https://h.example/x' }, idempotency_key: KEY });
    expect(api.effects).toBe(1);
    expect(b).toMatchObject({ ok: true, was_replay: true, result: a.ok ? a.result : 'no' });
  });

  it('an intent key from the app (no model key): the same intent once, a new intent again — never the call id', async () => {
    const args = { body: { text: 'x' } };
    await rt.call('createNote', args, { intent: { thread: 't1', turn: 3 } });
    const again = await rt.call('createNote', args, { intent: { thread: 't1', turn: 3 } });
    await rt.call('createNote', args, { intent: { thread: 't1', turn: 4 } });
    expect(again).toMatchObject({ ok: true, was_replay: true });
    expect(api.effects).toBe(2);
  });

  it('scopes keep principals apart: one key, two users, two effects', async () => {
    await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY }, { scope: 'sub:alice' });
    const bob = await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY }, { scope: 'sub:bob' });
    expect(bob).toMatchObject({ ok: true, was_replay: false });
    expect(api.effects).toBe(2);
  });
});

describe('errors the model can act on', () => {
  it("a 4xx: no effect, the API's code and message, and the key works after correcting the arguments", async () => {
    api.inject({
      kind: 'reject',
      status: 400,
      body: { code: 21211, message: "The 'To' number +15550000000 is not a valid phone number.", status: 400 },
    });
    const bad = await rt.call('createMessage', {
      AccountSid: 'AC123',
      body: { To: '+15550000000', Body: 'hi' },
      idempotency_key: KEY,
    });
    expect(bad).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'api_error',
        status: 400,
        api_code: '21211',
        api_message: "The 'To' number +15550000000 is not a valid phone number.",
        executed: 'no',
        retry_same_key: true,
      }),
    });
    expect(api.effects).toBe(0);
    const good = await rt.call('createMessage', { ...sms, idempotency_key: KEY });
    expect(good).toMatchObject({ ok: true, was_replay: false });
    expect(api.effects).toBe(1);
  });

  it('arguments that fail the schema never reach the API, and the key stays free', async () => {
    const bad = await rt.call('createMessage', {
      AccountSid: 'AC123',
      body: { To: 'not-a-number', Body: 'hi' },
      idempotency_key: KEY,
    });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', executed: 'no', retry_same_key: true, issues: [{ pointer: '/body/To' }] },
    });
    const noKey = await rt.call('createMessage', sms);
    expect(noKey).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', issues: [{ pointer: '/idempotency_key' }] },
    });
    expect(api.requests).toHaveLength(0);
    expect(await rt.call('createMessage', { ...sms, idempotency_key: KEY })).toMatchObject({ ok: true });
    expect(api.effects).toBe(1);
  });

  it('a 5xx after the commit on a fail-closed write: outcome unknown, not retried, the retry does not repeat it', async () => {
    api.inject({ kind: 'status', status: 502 });
    const first = await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY });
    expect(first).toMatchObject({
      ok: false,
      error: {
        code: 'idempotency_outcome_unknown',
        executed: 'unknown',
        retry_same_key: true,
        status: 502,
        message: expect.stringContaining('not run again'),
      },
    });
    const retry = await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY });
    expect(retry).toMatchObject({ ok: false, error: { executed: 'unknown' } });
    expect(api.effects).toBe(1);
  });

  it('an unknown tool name', async () => {
    expect(await rt.call('nope', {})).toMatchObject({ ok: false, error: { code: 'unknown_tool', executed: 'no' } });
  });
});

describe('messages that say what happened', () => {
  it("OP-1: the API's own 409 'in progress' on a keyed call is 'still running at the API', not 'correct the arguments'", async () => {
    const once = createToolRuntime({ bindings, baseUrl: api.url, retry: { attempts: 1 } });
    // No idempotency wording and no Retry-After: only the key on the request ties the answer to it.
    api.inject({ kind: 'reject', status: 409, body: { error: { message: 'This request is still in progress.' } } });
    const args = { body: { email: 'a@example.com' }, idempotency_key: KEY };
    const busy = await once.call('createCustomer', args);
    expect(busy).toMatchObject({
      ok: false,
      error: { code: 'idempotency_in_flight', executed: 'unknown', retry_same_key: true, status: 409 },
    });
    expect(busy.ok === false && busy.error.message).toMatch(/still running at the API.*retry with the same key later/);
    expect(busy.ok === false && busy.error.message).not.toMatch(/correct the arguments/i);
    expect(await once.call('createCustomer', args)).toMatchObject({ ok: true });
  });

  it('a 404 on a read names no key; nor does a read that never left', async () => {
    api.inject({ kind: 'reject', status: 404, body: { error: { message: 'No such order' } } });
    const missing = await rt.call('getOrder', { order_id: 'ord_missing' });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'api_error', executed: 'no', status: 404, api_message: 'No such order' },
    });
    expect(missing.ok === false && missing.error.message).not.toMatch(/key/i);
    const down = createToolRuntime({ bindings, baseUrl: await refusedUrl(), auth: { token: 't', account: 'a' } });
    const unsent = await down.call('getOrder', { order_id: 'ord_1' });
    expect(unsent).toMatchObject({ ok: false, error: { code: 'not_sent', executed: 'no' } });
    expect(unsent.ok === false && unsent.error.message).not.toMatch(/key/i);
  });

  it('a write whose connection is refused: not sent, executed no; the same key runs once when the API is back', async () => {
    const down = createToolRuntime({ bindings, baseUrl: await refusedUrl(), store: db.store });
    const args = { body: { text: 'x' }, idempotency_key: KEY };
    const first = await down.call('createNote', args);
    expect(first).toMatchObject({ ok: false, error: { code: 'not_sent', executed: 'no', retry_same_key: true } });
    expect(await rt.call('createNote', args)).toMatchObject({ ok: true, was_replay: false });
    expect(api.effects).toBe(1);
  });

  it('OP-5 whose connection is refused: not sent, the saga row released; the same key runs once later', async () => {
    const down = createToolRuntime({ bindings, baseUrl: await refusedUrl(), store: db.store });
    const args = { body: { url: 'https://h.example/z' }, idempotency_key: KEY };
    const first = await down.call('createWebhook', args);
    expect(first).toMatchObject({ ok: false, error: { code: 'not_sent', executed: 'no', retry_same_key: true } });
    expect(await rt.call('createWebhook', args)).toMatchObject({ ok: true, was_replay: false });
    expect(await rt.call('createWebhook', args)).toMatchObject({ ok: true, was_replay: true });
    expect(api.effects).toBe(1);
  });
});

describe('an id the API returned, used in a later path', () => {
  it("OP-5: an external id '..' is recorded, but its compensation is refused before any request", async () => {
    const odd = await startFaultServer({ respond: () => jsonAnswer(200, { id: '..' }) });
    try {
      const sagaRt = createToolRuntime({ bindings, baseUrl: odd.url, store: db.store });
      const made = await sagaRt.call('createWebhook', { body: { url: 'https://h.example/y' }, idempotency_key: KEY2 });
      expect(made).toMatchObject({ ok: true, result: { id: '..' } });
      // The inverse as the tool runtime sends it (execute.ts): the template and the id as a path parameter.
      const caller = createHttpCaller({ baseUrl: odd.url });
      const row = await compensateSaga(db.store, { key: KEY2 }, (id) =>
        caller
          .send({
            method: 'DELETE',
            path: '/webhooks/{webhook_id}',
            pathParams: { webhook_id: id },
            bodyType: 'none',
            mechanism: 'saga',
          })
          .then(() => undefined),
      );
      expect(odd.requests.map((r) => r.method)).toEqual(['POST']); // no DELETE /webhooks/.. (nor DELETE /)
      expect(row?.status).toBe('compensating'); // left for an operator: reconcile retries, never a wrong target
      expect(row?.error).toMatch(/dot segment/);
    } finally {
      await odd.close();
    }
  });
});

describe('timeouts', () => {
  it('the caller gives up (client-side timeout), the call finishes, a same-key retry gets its result: one effect', async () => {
    api.inject({ kind: 'delay', ms: 300 });
    const abort = AbortSignal.timeout(50);
    const first = await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY }, { signal: abort });
    expect(first).toMatchObject({ ok: false, error: { code: 'cancelled', executed: 'unknown', retry_same_key: true } });
    const retry = await rt.call('createNote', { body: { text: 'x' }, idempotency_key: KEY });
    expect(retry).toMatchObject({ ok: true, was_replay: true, result: { id: 'obj_1' } });
    expect(api.effects).toBe(1);
  });

  it('OP-1: the API stalls past the timeout, the same-key retry is replayed by the API: one effect', async () => {
    const slow = createToolRuntime({ bindings, baseUrl: api.url, timeoutMs: 150, retry: { attempts: 1 } });
    api.inject({ kind: 'stall', ms: 1000 });
    const args = { body: { email: 'a@example.com' }, idempotency_key: KEY2 };
    const first = await slow.call('createCustomer', args);
    expect(first).toMatchObject({
      ok: false,
      error: { code: 'idempotency_outcome_unknown', executed: 'unknown', retry_same_key: true },
    });
    const retry = await slow.call('createCustomer', args);
    expect(retry).toMatchObject({ ok: true, was_replay: true });
    expect(api.effects).toBe(1);
  });
});
