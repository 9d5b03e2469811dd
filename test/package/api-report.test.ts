import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { REPORT, render, surface } from '../../scripts/api-report.mjs';

type Entry = { entry: string; values: number; names: { name: string; kind: string }[] };

const current = (surface as () => Entry[])();

test('docs/api/runtime.api.md lists every export of every @idemgen/runtime entry (run `node scripts/api-report.mjs` after a surface change)', () => {
  expect(readFileSync(REPORT as string, 'utf8')).toBe((render as (s: Entry[]) => string)(current));
});

test('the package root exports at most 40 values; helpers only generated code calls live at ./support', () => {
  const byEntry = new Map(current.map((e) => [e.entry, e]));
  const root = byEntry.get('@idemgen/runtime');
  const support = byEntry.get('@idemgen/runtime/support');
  expect(root?.values).toBeLessThanOrEqual(40);
  // No helper is in both places. Types a generated method signature names (`CallOptions`, `RunResult`, …) are
  // re-exported at ./support too, so generated code imports from one entry; they are the same declarations.
  const rootValues = new Set(root?.names.filter((n) => !/^(type|interface)$/.test(n.kind)).map((n) => n.name));
  for (const n of support?.names ?? [])
    if (!/^(type|interface)$/.test(n.kind)) expect(rootValues.has(n.name), n.name).toBe(false);
  expect(support?.names.map((n) => n.name)).toContain('resolveKey');
});
