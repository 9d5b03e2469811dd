/**
 * The committed generated/ folder is the golden output for specs/: this is `idemgen check` on the
 * repository itself, so CI fails when an emitter or a spec changed without regenerating (review the diff
 * of generated/ like code). Generated TypeScript is compiled by test/emit/client.
 */
import { expect, test } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

test('generated/ is exactly what idemgen generates from specs/ (idemgen check)', async () => {
  const run = await runCli(['check'], ROOT);
  expect(run.stderr).not.toMatch(/is stale/);
  expect(run.code).toBe(0);
});
