/**
 * `idemgen serve --code` as a real child process, driven by the MCP SDK client over Streamable HTTP,
 * against the counting fault server: a failed script re-run under the same key replays its writes, a new
 * key makes new ones, a diverging script gets a conflict before any effect, and every escape attempt is a
 * tool error after which the server still answers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer, jsonAnswer, type FaultServer } from '../helpers/fault-server.js';
import { call, httpClient, type Result } from '../emit/mcp/client.js';
import { runCli } from '../helpers/cli.js';
import { SHOP_SPEC } from './shop-spec.js';
import { spawnServe, type ServeProcess } from './spawn-serve.js';

let api: FaultServer;
let serve: ServeProcess;
let client: Client;
let statusReads = 0;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-code-'));
  const spec = join(dir, 'shop.json');
  writeFileSync(spec, JSON.stringify(SHOP_SPEC));
  // The warehouse is not ready on the first status read, ready afterwards: the transient failure a re-run survives.
  api = await startFaultServer({
    respond: (req, effect) => {
      if (req.path === '/status') {
        statusReads += 1;
        return jsonAnswer(200, { ready: statusReads > 1 });
      }
      return jsonAnswer(200, { id: `obj_${effect}`, path: req.path, received: JSON.parse(req.body) as unknown });
    },
  });
  serve = await spawnServe([
    spec,
    '--code',
    '--http',
    '0',
    '--base-url',
    api.url,
    '--store',
    `sqlite:${join(dir, 'd.sqlite')}`,
  ]);
  client = await httpClient(serve.url);
}, 90_000);

afterAll(async () => {
  await client?.close();
  await serve?.stop();
  await api?.close();
});

const writes = () => api.effectsOn('/orders') + api.effectsOn('/shipments');
const execute = (code: string, key: string): Promise<Result> =>
  call(client, 'execute', { code, idempotency_key: key }, 60_000);
const body = (r: Result) => r.structuredContent as Record<string, unknown>;
const errorCode = (r: Result) => (body(r).error as { code?: string } | undefined)?.code;

const SCRIPT = `
const order = await api.createOrder({ body: { item: 'book' } });
const shipment = await api.createShipment({ body: { order: order.id } });
const status = await api.getStatus({});
if (!status.ready) throw new Error('warehouse not ready');
return { order: order.id, shipment: shipment.id };
`;

describe('serve --code', () => {
  it('lists search and execute only; search shows calls without the key', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search', 'execute']);
    const found = body(await call(client, 'search', { query: 'ship an order' }));
    const ops = found.operations as { name: string; signature: string; effect: string }[];
    expect(ops[0]?.name).toBe('createShipment');
    expect(ops[0]?.signature).toBe('api.createShipment(args: { body: { order: string } })');
    expect(ops[0]?.effect).toBe('write');
  });

  it('replays the writes of a failed run under the same key, makes new ones under a new key, refuses a diverging script', async () => {
    const first = await execute(SCRIPT, 'run-key-0000000000000001');
    expect(first.isError).toBe(true);
    expect(errorCode(first)).toBe('code_threw');
    expect((body(first).error as { executed: string }).executed).toBe('yes');
    expect(writes()).toBe(2);

    const again = await execute(SCRIPT, 'run-key-0000000000000001');
    expect(again.isError).toBeFalsy();
    expect(body(again).result).toEqual({ order: 'obj_1', shipment: 'obj_2' });
    expect(body(again).calls).toEqual([
      { tool: 'createOrder', write: 1, ok: true, was_replay: true },
      { tool: 'createShipment', write: 2, ok: true, was_replay: true },
      { tool: 'getStatus', ok: true },
    ]);
    expect(writes()).toBe(2);

    const fresh = await execute(SCRIPT, 'run-key-0000000000000002');
    expect(fresh.isError).toBeFalsy();
    expect(writes()).toBe(4);

    // Same key, different arguments at write 1; then a different operation at write 1; then write 2 differs.
    for (const code of [
      `await api.createOrder({ body: { item: 'pen' } }); return 1;`,
      `await api.createShipment({ body: { order: 'obj_1' } }); return 1;`,
      `const o = await api.createOrder({ body: { item: 'book' } }); await api.createShipment({ body: { order: 'other' } });`,
    ]) {
      const diverged = await execute(code, 'run-key-0000000000000001');
      expect(diverged.isError).toBe(true);
      expect(errorCode(diverged)).toBe('idempotency_conflict');
      expect(writes()).toBe(4);
    }
  });

  const ESCAPES: [string, string, string, RegExp][] = [
    ['oversized code', `return ${JSON.stringify('x'.repeat(70_000))};`, 'code_too_large', /at most 65536/],
    ['endless loop', 'for (;;) {}', 'code_timeout', /CPU budget/],
    ['deep recursion', 'function f(n) { return f(n + 1) + 1; } return f(0);', 'code_stack_overflow', /recursed/],
    [
      'deeply nested data',
      'let a = {}; for (let i = 0; i < 1e5; i++) a = { a }; return JSON.stringify(a).length;',
      'code_stack_overflow',
      /nested too deeply|recursed/,
    ],
    ['an endless await loop', 'for (;;) await null;', 'code_timeout', /CPU budget/],
    ['memory', 'const a = new Array(1e8).fill(1); return a.length;', 'code_out_of_memory', /memory/],
    ['huge result', 'return "x".repeat(1e6);', 'code_output_too_large', /Return less/],
    ['function result', 'return { f() {} };', 'code_result_not_json', /function/],
    ['BigInt result', 'return 1n;', 'code_result_not_json', /BigInt/],
    ['cyclic result', 'const a = {}; a.self = a; return a;', 'code_result_not_json', /circular/],
    ['api.__proto__', 'return api.__proto__;', 'code_threw', /no tool named "__proto__"/],
    ['api.constructor', 'return api.constructor.constructor("return process")();', 'code_threw', /no tool named/],
    [
      'a tool function constructor',
      'return api.getStatus.constructor("return process")().env;',
      'code_threw',
      /'process' is not defined/,
    ],
    ['process', 'return process.env;', 'code_threw', /'process' is not defined/],
    ['require', 'return require("fs").readFileSync("/etc/passwd", "utf8");', 'code_threw', /'require' is not defined/],
    ['import()', 'return await import("fs");', 'code_threw', /could not load module/],
    ['fetch', 'return await fetch("http://127.0.0.1:9/");', 'code_threw', /'fetch' is not defined/],
    ['file system', 'return std.loadFile("/etc/passwd");', 'code_threw', /'std' is not defined/],
    [
      'a key of its own',
      'return await api.createOrder({ body: { item: "x" }, idempotency_key: "mine-000000000000000" });',
      'code_threw',
      /derives each write's key/,
    ],
    ['a promise that never settles', 'await new Promise(() => {});', 'code_never_settles', /never settles/],
    ['a syntax error', 'return )', 'code_syntax_error', /does not compile/],
  ];

  it('refuses each escape attempt with a clear tool error; nothing is written and the next call works', async () => {
    const before = writes();
    let n = 0;
    for (const [what, code, expected, message] of ESCAPES) {
      n += 1;
      const r = await execute(code, `escape-key-${String(n).padStart(12, '0')}`);
      expect(r.isError, what).toBe(true);
      expect(errorCode(r), what).toBe(expected);
      expect((r.content as { text: string }[])[0]?.text, what).toMatch(message);
      expect((body(r).error as { executed: string }).executed, what).toBe('no');
      const next = await execute('return (await api.getStatus({})).ready;', `next-key-${String(n).padStart(14, '0')}`);
      expect(next.isError, `after ${what}`).toBeFalsy();
      expect(body(next).result, `after ${what}`).toBe(true);
    }
    expect(writes()).toBe(before);
  }, 420_000);

  it('does not start with both --code and --dynamic', async () => {
    const run = await runCli(['serve', 'shop.json', '--code', '--dynamic'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--code and --dynamic exclude each other');
  });

  it('refuses bad execute arguments before running anything', async () => {
    const noCode = await call(client, 'execute', { code: 42, idempotency_key: 'bad-args-key-00000001' });
    expect(errorCode(noCode)).toBe('invalid_arguments');
    const shortKey = await call(client, 'execute', { code: 'return 1', idempotency_key: 'short' });
    expect(errorCode(shortKey)).toBe('invalid_arguments');
    expect((shortKey.content as { text: string }[])[0]?.text).toMatch(/at least 16/);
  });
});
