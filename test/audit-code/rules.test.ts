import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CODE_RULES } from '../../src/audit-code/index.js';
import { auditFiles, FIXTURES, fixtureFiles, markers } from './helpers.js';

const CODE_IDS = new Set(CODE_RULES.map((r) => r.id));
/** Rules whose true positives also come in CommonJS / ES module files beside positive.ts. */
const POSITIVE_EXTRA: Record<string, string[]> = {
  key_generated_in_tool: ['positive.cjs'],
  time_varying_key: ['positive.mjs'],
};

describe.each(CODE_RULES.map((r) => r.id))('%s', (rule) => {
  const files = fixtureFiles(rule);
  const positive = files.filter((f) => /positive\./.test(f));
  const nearMiss = files.filter((f) => /near-miss\./.test(f));

  test('has a true-positive and a near-miss fixture', () => {
    const extra = POSITIVE_EXTRA[rule] ?? [];
    expect(positive.map((f) => f.slice(FIXTURES.length + 1)).sort()).toEqual(
      [...extra, 'positive.ts'].map((f) => `${rule}/${f}`).sort(),
    );
    expect(nearMiss.map((f) => f.slice(FIXTURES.length + 1))).toEqual([`${rule}/near-miss.ts`]);
  });

  test.each(positive.map((f) => [f.slice(FIXTURES.length + 1), f]))(
    'reports exactly the marked lines of %s',
    (_name, file) => {
      const expected = markers(file).sort();
      expect(expected.some((m) => m.startsWith(`${rule}@`))).toBe(true);
      // The whole folder is audited together so local re-exports resolve; only this file's findings count.
      const result = auditFiles(files);
      const shown = result.diagnostics.filter((d) => d.file && join(FIXTURES, d.file) === file && CODE_IDS.has(d.code));
      expect(shown.map((d) => `${d.code}@${d.line}`).sort()).toEqual(expected);
      for (const d of shown) {
        expect(d.col).toBeGreaterThanOrEqual(1);
        expect(d.hint).toBeTruthy();
      }
    },
  );

  test.each(nearMiss.map((f) => [f.slice(FIXTURES.length + 1), f]))('reports nothing for %s', (_name, file) => {
    const result = auditFiles(files);
    const shown = result.diagnostics.filter((d) => d.file && join(FIXTURES, d.file) === file && CODE_IDS.has(d.code));
    expect(shown.map((d) => `${d.code}@${d.line}: ${d.message}`)).toEqual([]);
  });
});
