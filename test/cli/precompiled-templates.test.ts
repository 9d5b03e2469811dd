/**
 * A built idemgen renders the shipped Handlebars templates from the specs `npm run build` precompiled
 * (src/emit/templates.ts): every template is there, the built CLI never loads the Handlebars compiler, and
 * what it renders is the committed generated/ byte for byte (the SQL migrations and audit.md included).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { precompiledModule, shippedTemplates } from '../../src/emit/templates.js';
import { ROOT } from '../helpers/cli.js';

const require = createRequire(import.meta.url);

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: { ...process.env, CI: 'true', ...env } },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

test('the build precompiles every template under templates/, as the sources precompile them now', () => {
  const shipped = shippedTemplates();
  const built = join(ROOT, 'dist/emit/templates.precompiled.cjs');
  const specs = require(built) as Record<string, unknown>;
  expect(shipped.length).toBeGreaterThan(20);
  expect(Object.keys(specs).sort()).toEqual(shipped);
  // Not stale: a template or its options edited since the build would show here.
  expect(readFileSync(built, 'utf8')).toBe(precompiledModule());
});

test('the built CLI renders generated/ from the precompiled templates, without the Handlebars compiler', async () => {
  // Fails the run if anything requires the compiler's entry (the runtime alone is `handlebars/runtime`).
  const guard = join(ROOT, 'test/cli/fixtures/no-handlebars-compiler.cjs');
  const checked = await run(['--require', guard, 'bin/idemgen.js', 'check']);
  expect(checked.stderr).not.toMatch(/is stale|handlebars compiler loaded/);
  expect(checked.code).toBe(0);
  // The guard works: loading the compiler under it fails.
  const probe = await run(['--require', guard, '-e', 'require("handlebars")']);
  expect(probe.stderr).toMatch(/handlebars compiler loaded/);
  expect(probe.code).not.toBe(0);
});
