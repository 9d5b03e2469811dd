/**
 * A `method-idempotent` tool through the tool runtime with no store: the binding the generator
 * builds for a classified DELETE has no key argument; the server deletes and stalls past the timeout, the
 * runtime retries and the outcome is ok with `was_replay: true`; a first-attempt 404 is an error.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify } from '../../../src/classify/index.js';
import { resolveConfig } from '../../../src/config/types.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { createToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { apiOf, http } from '../../classify/helpers.js';

let server: Server;
let baseUrl: string;
const existing = new Set<string>();
const stall = new Set<string>();
const held: ServerResponse[] = [];
let effects = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      if (!existing.delete(path)) return void res.writeHead(404).end('{"error":"not found"}');
      effects++;
      if (stall.delete(path)) return void held.push(res);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"deleted":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const r of held) r.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function tools() {
  const op = http('delete', '/webhooks/{id}', {
    parameters: [{ name: 'id', in: 'path', required: true, pointer: '/p', schema: { type: 'string' } }],
  });
  const plan = classify([apiOf([op])], resolveConfig());
  expect(plan.apis[0]!.entries[0]!.mechanism).toBe('method-idempotent');
  const bindings = buildToolBindings(plan.apis[0]!, resolveConfig());
  return {
    binding: bindings[0]!,
    runtime: createToolRuntime({ bindings, baseUrl, timeoutMs: 200, retry: { baseDelayMs: 1, maxDelayMs: 5 } }),
  };
}

describe('method-idempotent tool, no store', () => {
  it('has no key argument and is a write hinted idempotent', () => {
    const { binding } = tools();
    expect(binding.keyProperty).toBeUndefined();
    expect(binding.inputSchema).toMatchObject({ required: ['id'] });
    expect(binding.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(binding.description).toMatch(/Safe to retry: repeating this DELETE/);
  });

  it('commit, then the answer is lost: retried, done, was_replay, one effect', async () => {
    const { runtime, binding } = tools();
    existing.add('/webhooks/w1');
    stall.add('/webhooks/w1');
    const before = effects;
    const out = await runtime.call(binding.names.mcp, { id: 'w1' });
    expect(out).toMatchObject({ ok: true, result: null, was_replay: true });
    expect(effects - before).toBe(1);
  });

  it('a 404 on the first attempt is an error outcome', async () => {
    const { runtime, binding } = tools();
    const out = await runtime.call(binding.names.mcp, { id: 'never' });
    expect(out.ok).toBe(false);
  });
});
