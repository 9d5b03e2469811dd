/**
 * Code mode against a hostile caller, black-box (hostile-server.ts): each attack runs while the server is
 * probed (metadata and another caller's tool call answer within 2 s), ends with its own clear error, and
 * a normal run works after it. Bounds: a CPU bomb inside one built-in call, big strings to the log, a
 * memory bomb, large arguments from concurrent runs of two callers, many runs from one caller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

beforeAll(async () => {
  s = await startHostileServer();
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('serve --code under attack', () => {
  it('stops a CPU bomb inside one built-in call (big-integer power, toString) from outside the engine', async () => {
    const code = 'const x = 2n ** 1000000n; let n = 0; for (let i = 0; i < 8; i++) n += x.toString().length; return n;';
    const started = Date.now();
    const { outcome } = await watch(s, () => execute(s.alice, code, newKey('cpu-bomb')));
    expect(errorOf(outcome)).toMatchObject({ code: 'code_timeout', executed: 'no' });
    expect(errorOf(outcome)?.message).toMatch(/CPU budget/);
    // 2 s of the thread's CPU time plus the grace; the wall time depends on the machine's load.
    expect(Date.now() - started).toBeLessThan(30_000);
    await expectNormalRun(s);
  }, 60_000);

  it('cuts big strings to the log inside the engine, before they are copied out', async () => {
    const code = `
      const big = 'x'.repeat(4e6);
      let built = '';
      for (let i = 0; i < 2000; i++) built += 'y'.repeat(1000);
      for (let i = 0; i < 20; i++) console.log(big, built);
      for (let i = 0; i < 20000; i++) console.log('line ' + i);
      return 'logged';`;
    const { outcome } = await watch(s, () => execute(s.alice, code, newKey('log-bomb')), { startMs: 200, rounds: 1 });
    const logs = body(outcome).logs as string[];
    expect(logs.at(-1)).toBe('[console output cut: limit reached]');
    expect(logs.join('').length).toBeLessThanOrEqual(64 * 1024 + 40);
    await expectNormalRun(s);
  }, 60_000);

  it('stops a memory bomb at the isolate memory cap', async () => {
    // Arrays filled near the cap: the engine spends its time collecting garbage (40 s in one thread
    // before this design); it ends out of memory or is stopped on its CPU budget, whichever comes first.
    const many = 'const a = []; for (;;) a.push(new Array(1e5).fill(a.length));';
    const { outcome } = await watch(s, () => execute(s.alice, many, newKey('memory-bomb')), {
      startMs: 300,
      rounds: 2,
    });
    expect(['code_out_of_memory', 'code_timeout']).toContain(errorOf(outcome)?.code);
    expect(errorOf(outcome)?.executed).toBe('no');
    // The engine's heap is capped at 32 MiB and the thread's V8 heap at 72 MiB; the process stays far from its own limit.
    expect(s.rssMiB()).toBeLessThan(1_024);
    await expectNormalRun(s);
  }, 60_000);

  it('refuses large arguments inside the engine, from concurrent runs of two callers, without growing the server', async () => {
    const before = s.rssMiB();
    const code = `
      const big = 'x'.repeat(3e6);
      const codes = [];
      for (let i = 0; i < 100; i++) {
        try { await api.getStatus({ pad: big + i }); codes.push('sent'); } catch (e) { codes.push(e.code); }
      }
      return codes;`;
    const reads = s.api.effectsOn('/status');
    const alice2 = await s.connect('alice');
    const bob2 = await s.connect('bob');
    const { outcome } = await watch(
      s,
      () =>
        Promise.all([
          execute(s.alice, code, newKey('args-a1')),
          execute(alice2, code, newKey('args-a2')),
          execute(s.bob, code, newKey('args-b1')),
          execute(bob2, code, newKey('args-b2')),
        ]),
      { startMs: 200, rounds: 1 },
    );
    for (const r of outcome) {
      expect(r.isError, JSON.stringify(r.structuredContent).slice(0, 300)).toBeFalsy();
      expect(new Set(body(r).result as string[])).toEqual(new Set(['arguments_too_large']));
    }
    expect(s.api.effectsOn('/status')).toBe(reads);
    expect(s.rssMiB() - before).toBeLessThan(400);
    expect(s.rssMiB()).toBeLessThan(1_024);
    await expectNormalRun(s);
  }, 90_000);

  it('limits runs per caller: one caller filling its slots does not stop another', async () => {
    const loop = 'for (;;) {}';
    const extra = await Promise.all([s.connect('alice'), s.connect('alice'), s.connect('alice')]);
    const { outcome } = await watch(
      s,
      async () => {
        const runs = [s.alice, ...extra].map((c, i) => execute(c, loop, newKey(`many-${i}`)));
        // While alice holds her slots, bob's run is served.
        await new Promise((r) => setTimeout(r, 300));
        const bobs = await execute(s.bob, 'return (await api.getStatus({})).path;', newKey('bob-served'));
        return { alice: await Promise.all(runs), bob: bobs };
      },
      { startMs: 300, rounds: 2 },
    );
    const codes = outcome.alice.map((r) => errorOf(r)?.code).sort();
    expect(codes).toEqual(['code_busy', 'code_busy', 'code_timeout', 'code_timeout']);
    expect(errorOf(outcome.alice.find((r) => errorOf(r)?.code === 'code_busy') as never)?.message).toMatch(
      /You are running 2 scripts/,
    );
    expect(body(outcome.bob).result).toBe('/status');
    await expectNormalRun(s);
  }, 60_000);
});
