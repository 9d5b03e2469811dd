/**
 * Code mode tells the truth about its writes, black-box (hostile-server.ts): a write the script never
 * awaits (then loops forever, or returns at once) is accounted for in the answer, a retried run whose
 * list of writes shifted never repeats a write under the same run key, deep arguments are refused before
 * anything is sent, and a read-only caller's search shows no writes. Attacks run while the server is probed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../emit/mcp/client.js';
import { jsonAnswer } from '../helpers/fault-server.js';
import {
  body,
  errorOf,
  execute,
  expectNormalRun,
  newKey,
  startHostileServer,
  watch,
  type HostileServer,
} from './hostile-server.js';

let s: HostileServer;
/** What the API's status read lists: the data a script iterates over. */
let items: string[] = [];

beforeAll(async () => {
  s = await startHostileServer((req, effect) => {
    if (req.path === '/status') return jsonAnswer(200, { path: req.path, items });
    return jsonAnswer(200, { id: `obj_${effect}`, path: req.path, received: JSON.parse(req.body) as unknown });
  });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

type Call = { tool: string; write?: number; ok: boolean; was_replay?: boolean; result?: { id: string } };
const calls = (r: Awaited<ReturnType<typeof execute>>) => body(r).calls as Call[];
const ordersOf = (item: string) =>
  s.api.requests.filter((q) => q.path === '/orders' && JSON.parse(q.body).item === item).length;

describe('serve --code reports what reached the API', () => {
  it('a write never awaited before an endless loop reached the API, and the answer says so', async () => {
    const code = "api.createOrder({ body: { item: 'unawaited-loop' } }); for (;;) {}";
    const { outcome } = await watch(s, () => execute(s.alice, code, newKey('unawaited-loop')));
    expect(ordersOf('unawaited-loop')).toBe(1);
    expect(errorOf(outcome), JSON.stringify(body(outcome))).toMatchObject({ code: 'code_timeout', executed: 'yes' });
    expect(errorOf(outcome)?.message).not.toMatch(/No write was executed/);
    expect(calls(outcome)).toEqual([
      {
        tool: 'createOrder',
        write: 1,
        ok: true,
        was_replay: false,
        result: expect.objectContaining({ path: '/orders' }),
      },
    ]);
    await expectNormalRun(s);
  }, 60_000);

  it('a write never awaited before the script returns is waited for and reported', async () => {
    s.api.inject({ kind: 'delay', ms: 1_500 });
    const code = "api.createOrder({ body: { item: 'unawaited-return' } }); return 'done';";
    const { outcome } = await watch(s, () => execute(s.alice, code, newKey('unawaited-return')), {
      startMs: 200,
      rounds: 2,
    });
    expect(outcome.isError).toBeFalsy();
    expect(body(outcome).result).toBe('done');
    expect(calls(outcome)).toEqual([
      {
        tool: 'createOrder',
        write: 1,
        ok: true,
        was_replay: false,
        result: expect.objectContaining({ received: { item: 'unawaited-return' } }),
      },
    ]);
    expect(ordersOf('unawaited-return')).toBe(1);
    await expectNormalRun(s);
  }, 60_000);
});

describe('serve --code never repeats a write under one run key', () => {
  it('a retried run whose list shifted stops at the first conflict: each write reaches the API once', async () => {
    const code = `
      const { items } = await api.getStatus({});
      const done = [];
      for (const item of items) {
        try { done.push((await api.createOrder({ body: { item } })).id); } catch (e) { done.push(e.code); }
      }
      return done;`;
    const key = newKey('shifted');
    items = ['shift-a', 'shift-b'];
    const first = await execute(s.alice, code, key);
    expect(first.isError).toBeFalsy();
    // The data changed between the tries: a new item sits between the two that were written.
    items = ['shift-a', 'shift-x', 'shift-b'];
    const { outcome } = await watch(s, () => execute(s.alice, code, key), { startMs: 50, rounds: 1 });
    expect(errorOf(outcome)).toMatchObject({ code: 'idempotency_conflict' });
    expect(errorOf(outcome)?.message).toMatch(/no later write of this run was sent/);
    expect(calls(outcome)).toEqual([
      { tool: 'getStatus', ok: true },
      {
        tool: 'createOrder',
        write: 1,
        ok: true,
        was_replay: true,
        result: expect.objectContaining({ id: expect.any(String) }),
      },
      { tool: 'createOrder', write: 2, ok: false, error_code: 'idempotency_conflict' },
      { tool: 'createOrder', ok: false, error_code: 'idempotency_conflict' },
    ]);
    expect([ordersOf('shift-a'), ordersOf('shift-b'), ordersOf('shift-x')]).toEqual([1, 1, 0]);
    await expectNormalRun(s);
  }, 60_000);
});

describe('serve --code small bounds', () => {
  it('refuses arguments nested past the limit as invalid_arguments, executed no', async () => {
    const code = `
      let deep = 'bottom';
      for (let i = 0; i < 200; i++) deep = { deep };
      try { await api.createOrder({ body: { item: 'deep', extra: deep } }); return 'sent'; }
      catch (e) { return [e.code, e.details.executed, e.message]; }`;
    const before = s.api.effectsOn('/orders');
    const r = await execute(s.alice, code, newKey('deep-args'));
    const [code_, executed, message] = body(r).result as string[];
    expect([code_, executed]).toEqual(['invalid_arguments', 'no']);
    expect(message).toMatch(/nested deeper than 64 levels/);
    expect(s.api.effectsOn('/orders')).toBe(before);
  }, 60_000);

  it('search shows a read-only caller only what it may call', async () => {
    const names = async (c: typeof s.alice) =>
      (
        (await call(c, 'search', { query: 'create an order ship status', limit: 30 })).structuredContent as {
          operations: { name: string }[];
        }
      ).operations.map((o) => o.name);
    expect((await names(s.alice)).sort()).toEqual(['createOrder', 'createShipment', 'getStatus']);
    expect(await names(s.reader)).toEqual(['getStatus']);
  }, 60_000);
});
