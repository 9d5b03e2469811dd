/**
 * Every generated call reaches the API as the spec says. Each operation is called once
 * through the generated client and once through the tool runtime, with arguments sampled from the tool's
 * input schema, against a server that checks each request with openapi-backend (route, parameters with
 * their style and explode, content type, body schema). specs/ runs whole; Stripe and GitHub run on a
 * fixed every-Nth sample here and whole in the corpus suite (test/corpus/wire-corpus.test.ts).
 * The goal is 100 % on both paths: a failure lists the operation, the request and what the validator said.
 */
import { describe, expect, it } from 'vitest';
import { formatTable, type WireSpecResult, wireTarget } from './helpers/harness.js';
import { GITHUB, SAMPLE_EVERY, specsTargets, STRIPE, type WireTarget } from './helpers/targets.js';

function expectConformant(results: WireSpecResult[]): void {
  console.log(formatTable(results));
  for (const r of results) {
    expect(r.failures, r.spec).toEqual([]);
    expect([r.client, r.tool], r.spec).toEqual([r.operations, r.operations]);
  }
}

describe('wire conformance (validator: openapi-backend 5.21.2)', () => {
  it('specs/: every operation of every OpenAPI spec, on the client path and the tool path', async () => {
    const targets = specsTargets();
    expect(targets.map((t) => t.name)).toEqual([
      'specs/inventory.swagger.json',
      'specs/messaging.openapi.yaml',
      'specs/payments.openapi.yaml',
    ]);
    const results: WireSpecResult[] = [];
    for (const t of targets) results.push(...(await wireTarget(t, `wire/specs/${t.file}`)));
    expect(results.map((r) => r.operations)).toEqual([5, 6, 5]);
    expectConformant(results);
  });

  it.each<[string, WireTarget]>([
    ['Stripe', { ...STRIPE, every: SAMPLE_EVERY.stripe }],
    ['GitHub', { ...GITHUB, every: SAMPLE_EVERY.github }],
  ])('%s: a fixed every-Nth sample of its operations', { timeout: 120_000 }, async (_, target) => {
    const results = await wireTarget(target, `wire/sample/${target.name.split(' ')[0]}`);
    expect(results).toHaveLength(1);
    expect(results[0]!.operations).toBeGreaterThanOrEqual(45);
    expectConformant(results);
  });
});
