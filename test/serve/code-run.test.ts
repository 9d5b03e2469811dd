/**
 * Code-mode runs in process (runCode over the serve tool runtime, a real SQLite dedup store and the
 * counting fault server): parallel writes numbered in call order, the per-run call limit, a cancelled run
 * making no further writes, and the console output cap.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { analyze } from '../../src/pipeline.js';
import { runCode, type CodeRunOptions } from '../../src/serve/code/run.js';
import { DEFAULT_LIMITS } from '../../src/serve/code/sandbox.js';
import { buildServeRuntime } from '../../src/serve/runtime.js';
import { openServeStore, type ServeStore } from '../../src/serve/store.js';
import { type FaultServer, startFaultServer } from '../helpers/fault-server.js';
import { SHOP_SPEC } from './shop-spec.js';

let api: FaultServer;
let store: ServeStore;
let opts: CodeRunOptions;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-code-run-'));
  const spec = join(dir, 'shop.json');
  writeFileSync(spec, JSON.stringify(SHOP_SPEC));
  api = await startFaultServer();
  const config = resolveConfig();
  const { plan } = await analyze([spec], config, dir);
  store = await openServeStore(`sqlite:${join(dir, 'd.sqlite')}`, dir, config.sql, { migrate: true });
  const { runtime } = buildServeRuntime({ plan, config, select: {}, store: store.store, baseUrl: api.url, env: {} });
  opts = { runtime };
}, 60_000);

afterAll(async () => {
  await store?.store.close();
  await api?.close();
});

const writes = () => api.effectsOn('/orders') + api.effectsOn('/shipments');

describe('code-mode runs', () => {
  it('numbers parallel writes in call order, so the same script under the same key replays both', async () => {
    const code = `
      const [a, b] = await Promise.all([
        api.createOrder({ body: { item: 'a' } }),
        api.createOrder({ body: { item: 'b' } }),
      ]);
      return [JSON.parse(a.received).item, JSON.parse(b.received).item];`;
    const first = await runCode(opts, code, 'parallel-run-key-0001', {});
    expect(first).toMatchObject({ ok: true, result: ['a', 'b'] });
    const before = writes();
    const again = await runCode(opts, code, 'parallel-run-key-0001', {});
    expect(again.ok && again.calls.map((c) => [c.write, c.was_replay])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(writes()).toBe(before);
  });

  it("passes each write's derived key in the call context, never in the script's arguments", async () => {
    const seen: { tool: string; args: Record<string, unknown>; key: string | undefined }[] = [];
    const spy: CodeRunOptions['runtime'] = {
      list: () => opts.runtime.list(),
      call: (tool, args, ctx) => {
        seen.push({ tool, args: args as Record<string, unknown>, key: ctx?.key });
        return opts.runtime.call(tool, args, ctx);
      },
    };
    const code = `await api.createOrder({ body: { item: 'ctx' } }); return 1;`;
    expect(await runCode({ ...opts, runtime: spy }, code, 'ctx-key-run-0000001', {})).toMatchObject({ ok: true });
    const keyProperty = opts.runtime.list().find((b) => b.names.mcp === 'createOrder')?.keyProperty;
    expect(keyProperty).toBeDefined();
    expect(seen).toEqual([
      { tool: 'createOrder', args: { body: { item: 'ctx' } }, key: expect.stringMatching(/^cm-[0-9a-f]{16,}$/) },
    ]);
    expect(seen[0]!.args).not.toHaveProperty(keyProperty!);
  });

  it('stops making calls past the per-run limit', async () => {
    const before = writes();
    const run = await runCode(
      { ...opts, limits: { ...DEFAULT_LIMITS, calls: 3 } },
      `for (let i = 0; i < 5; i++) await api.createOrder({ body: { item: 'n' + i } });`,
      'limit-run-key-000001',
      {},
    );
    expect(run.ok).toBe(false);
    if (run.ok) return;
    expect(run.error.message).toMatch(/code_too_many_calls/);
    expect(run.error.executed).toBe('yes');
    expect(writes() - before).toBe(3);
  });

  it('a cancelled run makes no write after the cancel', async () => {
    const before = writes();
    api.inject({ kind: 'delay', ms: 400 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const run = await runCode(
      opts,
      `try { await api.getStatus({}); } catch (e) {} await api.createOrder({ body: { item: 'late' } }); return 1;`,
      'cancel-run-key-000001',
      { signal: abort.signal },
    );
    expect(run.ok).toBe(false);
    if (!run.ok) expect(run.error.code).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 600));
    expect(writes()).toBe(before);
  });

  it('refuses a run past the concurrency limit without running it', async () => {
    api.inject({ kind: 'delay', ms: 500 });
    const slow = runCode(opts, 'return (await api.getStatus({})).effect;', 'busy-run-key-0000001', {});
    await api.arrived(api.requests.length + 1);
    const refused = await runCode(
      { ...opts, maxConcurrentRuns: 1 },
      `await api.createOrder({ body: { item: 'busy' } });`,
      'busy-run-key-0000002',
      {},
    );
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect([refused.error.code, refused.error.executed]).toEqual(['code_busy', 'no']);
    expect((await slow).ok).toBe(true);
    const after = await runCode({ ...opts, maxConcurrentRuns: 1 }, 'return 1;', 'busy-run-key-0000003', {});
    expect(after).toMatchObject({ ok: true, result: 1 });
  });

  it('reports a write still in flight past the settle bound as executed unknown, with its key', async () => {
    api.inject({ kind: 'delay', ms: 2_500 });
    const before = api.effectsOn('/orders');
    const run = await runCode(
      { ...opts, settleMs: 300 },
      `api.createOrder({ body: { item: 'slow' } }); return 'done';`,
      'unknown-run-key-00001',
      {},
    );
    expect(run).toMatchObject({ ok: true, result: 'done' });
    expect(run.calls).toEqual([
      {
        tool: 'createOrder',
        write: 1,
        ok: false,
        executed: 'unknown',
        key: expect.stringMatching(/^cm-[0-9a-f]{64}$/),
      },
    ]);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(api.effectsOn('/orders')).toBe(before + 1);
    // The same run key resolves it: the write is replayed, not repeated.
    const again = await runCode(
      opts,
      `return (await api.createOrder({ body: { item: 'slow' } })).id;`,
      'unknown-run-key-00001',
      {},
    );
    expect(again.ok && again.calls[0]?.was_replay).toBe(true);
    expect(api.effectsOn('/orders')).toBe(before + 1);
  });

  it('answers a runtime that throws after sending as internal_error, executed unknown, never "nothing ran"', async () => {
    // The write reaches the API, then the server fails before it can answer the script.
    const throwing: CodeRunOptions['runtime'] = {
      list: () => opts.runtime.list(),
      call: async (tool, args, ctx) => {
        await opts.runtime.call(tool, args, ctx);
        throw new Error('boom after send');
      },
    };
    const before = api.effectsOn('/orders');
    const caught = await runCode(
      { ...opts, runtime: throwing },
      `try { await api.createOrder({ body: { item: 'ie-1' } }); } catch (e) { return [e.code, e.details.executed, e.details.retry_same_key, e.message]; }`,
      'internal-run-key-00001',
      {},
    );
    expect(api.effectsOn('/orders')).toBe(before + 1);
    expect(caught.ok).toBe(true);
    const [code, executed, retrySameKey, message] = (caught.ok ? caught.result : []) as [
      string,
      string,
      boolean,
      string,
    ];
    expect([code, executed, retrySameKey]).toEqual(['internal_error', 'unknown', true]);
    expect(message).toMatch(/boom after send/);
    expect(message).toMatch(/may have been sent/);
    expect(caught.calls).toEqual([
      {
        tool: 'createOrder',
        write: 1,
        ok: false,
        error_code: 'internal_error',
        executed: 'unknown',
        key: expect.stringMatching(/^cm-[0-9a-f]{64}$/),
      },
    ]);
    // Uncaught, the run itself fails: its answer says the outcome is unknown, not that no write ran.
    const failed = await runCode(
      { ...opts, runtime: throwing },
      `await api.createOrder({ body: { item: 'ie-2' } }); return 'unreached';`,
      'internal-run-key-00002',
      {},
    );
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error.executed).toBe('unknown');
    expect(failed.error.message).not.toMatch(/No write was executed/);
    expect(failed.calls[0]).toMatchObject({ error_code: 'internal_error', executed: 'unknown' });
    // The same run key resolves it: the write that completed is replayed, not repeated.
    const again = await runCode(
      opts,
      `return (await api.createOrder({ body: { item: 'ie-2' } })).id;`,
      'internal-run-key-00002',
      {},
    );
    expect(again.ok && again.calls[0]?.was_replay).toBe(true);
    expect(api.effectsOn('/orders')).toBe(before + 2);
  });

  it('cuts console output at its share of the output limit', async () => {
    const run = await runCode(
      { ...opts, limits: { ...DEFAULT_LIMITS, outputBytes: 4_000 } },
      `for (let i = 0; i < 1000; i++) console.log('line', i); return 'done';`,
      'console-run-key-00001',
      {},
    );
    expect(run.ok).toBe(true);
    expect(run.logs.at(-1)).toBe('[console output cut: limit reached]');
    expect(run.logs.slice(0, -1).join('').length).toBeLessThanOrEqual(1_000);
  });
});
