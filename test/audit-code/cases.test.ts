/**
 * Side effects found by behaviour (an SDK call or a raw request that writes, whatever the tool is called): one folder per SDK or pattern under
 * test/fixtures/code-audit-cases, each with a positive.ts whose `// ✗ rule` markers are exactly the
 * findings and a near-miss.ts (a GET, a read-only SDK method, a key from state or arguments) with none.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CODE_RULES } from '../../src/audit-code/index.js';
import { auditFiles, markers } from './helpers.js';

const CASES = join(import.meta.dirname, '..', 'fixtures', 'code-audit-cases');
const CODE_IDS = new Set(CODE_RULES.map((r) => r.id));
const EXPECTED_CASES = [
  'described-tool',
  'fetch-post',
  'helper-key',
  'nodemailer',
  'process-and-files',
  'read-only-hint',
  'resend',
  'sendgrid',
  'slack',
  'twilio',
];

function findings(dir: string, file: string) {
  const files = readdirSync(dir).map((f) => join(dir, f));
  const result = auditFiles(files, CASES);
  return result.diagnostics.filter((d) => d.file && join(CASES, d.file) === file && CODE_IDS.has(d.code));
}

test('every case folder has a positive and a near-miss file', () => {
  const dirs = readdirSync(CASES, { withFileTypes: true }).filter((e) => e.isDirectory());
  expect(dirs.map((d) => d.name).sort()).toEqual(EXPECTED_CASES);
  for (const d of dirs)
    expect(readdirSync(join(CASES, d.name))).toEqual(expect.arrayContaining(['positive.ts', 'near-miss.ts']));
});

describe.each(EXPECTED_CASES)('%s', (name) => {
  const dir = join(CASES, name);

  test('positive.ts: exactly the marked findings, each with a column and a hint', () => {
    const file = join(dir, 'positive.ts');
    const expected = markers(file).sort();
    expect(expected.length).toBeGreaterThan(0);
    const shown = findings(dir, file);
    expect(shown.map((d) => `${d.code}@${d.line}`).sort()).toEqual(expected);
    for (const d of shown) {
      expect(d.col).toBeGreaterThanOrEqual(1);
      expect(d.hint).toBeTruthy();
    }
  });

  test('near-miss.ts: no finding', () => {
    const shown = findings(dir, join(dir, 'near-miss.ts'));
    expect(shown.map((d) => `${d.code}@${d.line}: ${d.message}`)).toEqual([]);
  });
});
