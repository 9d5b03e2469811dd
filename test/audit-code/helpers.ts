import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditCode } from '../../src/audit-code/index.js';
import { resolveConfig } from '../../src/config/types.js';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'code-audit');

/** `// ✗ rule_id` markers of a fixture file as `rule@line` strings. */
export function markers(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => [...line.matchAll(/✗ ([a-z_]+)/g)].map((m) => `${m[1]}@${i + 1}`));
}

export function auditFiles(files: string[], cwd = FIXTURES) {
  return auditCode(files, resolveConfig({}), cwd);
}

export function fixtureFiles(rule: string): string[] {
  return readdirSync(join(FIXTURES, rule)).map((f) => join(FIXTURES, rule, f));
}
