/**
 * Case 2's soft guard: a new intent (fresh key) for the same operation and recipient within the window
 * runs, and its result says when and under which key the similar call completed. Off by default.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createIdempotency } from '../../../packages/runtime/src/index.js';
import { makeStore, type TestStore } from '../store/stores.js';

describe('recentSimilar (opt-in)', () => {
  let t: TestStore;
  let clock = 1_800_000_000_000;
  beforeAll(async () => {
    t = await makeStore('sqlite', inject('pgUrl'), 'similar');
  });
  afterAll(() => t.cleanup());

  const send = (to: string, text: string) => ({ to, text });
  let effects = 0;
  const effect = async () => ({ id: ++effects });

  it('flags a new intent for the same recipient within the window; it still runs', async () => {
    const idem = createIdempotency({
      store: t.store,
      now: () => clock,
      recentSimilar: { windowSeconds: 60, select: (a) => ({ to: (a as { to: string }).to }) },
    });
    const req = (key: string, args: unknown) => ({
      operation: 'tool:send_sms',
      key,
      args,
      mechanism: 'fail-closed' as const,
    });
    const first = await idem.run(req('sms-intent-0000000001', send('+15550001', 'on my way')), effect);
    expect(first.recentSimilar).toBeUndefined();
    clock += 20_000;
    const second = await idem.run(req('sms-intent-0000000002', send('+15550001', 'on my way!')), effect);
    expect(second.wasReplay).toBe(false);
    expect(effects).toBe(2);
    expect(second.recentSimilar).toEqual({ calledAt: new Date(clock - 20_000), key: 'sms-intent-0000000001' });
    const retry = await idem.run(req('sms-intent-0000000002', send('+15550001', 'on my way!')), effect);
    expect(retry).toMatchObject({ wasReplay: true });
    expect(retry.recentSimilar).toBeUndefined(); // a replay is not a new intent
    const other = await idem.run(req('sms-intent-0000000003', send('+15550002', 'on my way')), effect);
    expect(other.recentSimilar).toBeUndefined(); // another recipient
    clock += 61_000;
    const late = await idem.run(req('sms-intent-0000000004', send('+15550001', 'on my way')), effect);
    expect(late.recentSimilar).toBeUndefined(); // outside the window
  });

  it('is off by default', async () => {
    const idem = createIdempotency({ store: t.store, now: () => clock });
    const req = (key: string) => ({
      operation: 'tool:send_sms',
      key,
      args: send('+15550009', 'x'),
      mechanism: 'fail-closed' as const,
    });
    await idem.run(req('sms-default-00000001'), effect);
    expect((await idem.run(req('sms-default-00000002'), effect)).recentSimilar).toBeUndefined();
  });
});
