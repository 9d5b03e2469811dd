/**
 * A batch run holds V8's young generation at 2 MiB per semi-space while its inputs are small, and leaves it to V8
 * for large inputs or when the user sized it (src/cli/young-generation.ts, decision 0224).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import {
  inputBytes,
  LARGE_INPUT_BYTES,
  SMALL_INPUT_YOUNG_BYTES,
  sizeYoungGeneration,
  youngGenerationBytes,
} from '../../src/cli/young-generation.js';
import { ROOT } from '../helpers/cli.js';

afterEach(() => vi.unstubAllEnvs());

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-young-'));
  mkdirSync(join(dir, 'specs'));
  return dir;
}

test('input bytes are the spec files a run reads: a file as given, a folder walked for .json/.yaml', () => {
  const dir = folder();
  writeFileSync(join(dir, 'specs/a.json'), '{"openapi":"3.0.3"}');
  writeFileSync(join(dir, 'specs/b.yaml'), 'openapi: 3.0.3\n');
  writeFileSync(join(dir, 'specs/notes.txt'), 'not a spec, not read');
  writeFileSync(join(dir, 'one.yml'), 'x: 1\n');
  expect(inputBytes([join(dir, 'specs')])).toBe(19 + 15);
  expect(inputBytes([join(dir, 'specs'), join(dir, 'one.yml'), join(dir, 'missing.json')])).toBe(19 + 15 + 5);
});

test('small inputs keep the young generation at its size, large ones let it grow, a user flag wins', () => {
  vi.stubEnv('NODE_OPTIONS', '');
  const dir = folder();
  const spec = join(dir, 'specs/big.json');
  writeFileSync(spec, '');
  truncateSync(spec, LARGE_INPUT_BYTES - 1);
  expect(sizeYoungGeneration([spec])).toBe(1);
  // Set to 2 MiB per semi-space whatever the process allocated before (this worker's start-up, not the CLI's).
  expect(youngGenerationBytes()).toBeGreaterThanOrEqual(SMALL_INPUT_YOUNG_BYTES);
  truncateSync(spec, LARGE_INPUT_BYTES);
  expect(sizeYoungGeneration([spec])).toBe(2);
  vi.stubEnv('NODE_OPTIONS', '--max-semi-space-size=8');
  expect(sizeYoungGeneration([spec])).toBeUndefined();
});

function newSpaceAfter(nodeArgs: string[]): Promise<number> {
  const preload = join(ROOT, 'test/cli/fixtures/report-new-space.cjs');
  const out = mkdtempSync(join(tmpdir(), 'idemgen-young-out-'));
  const args = [...nodeArgs, '--require', preload, 'bin/idemgen.js', 'generate', 'specs', '--out', out, '--no-cache'];
  return new Promise((done, fail) =>
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: { ...process.env, CI: 'true', NODE_OPTIONS: '' } },
      (err, _o, stderr) => {
        const m = /new_space=(\d+)/.exec(stderr);
        if (err || !m) fail(new Error(`generate failed: ${err?.message ?? ''}\n${stderr}`));
        else done(Number(m[1]));
      },
    ),
  );
}

test('generate on the bundled specs holds a smaller young generation than V8 grows by itself', async () => {
  const lean = await newSpaceAfter([]);
  // The same run with V8's default growth (a semi-space flag of the user's: idemgen leaves it alone).
  const grown = await newSpaceAfter(['--semi-space-growth-factor=2']);
  expect(lean).toBeLessThanOrEqual(4 * 2 ** 20);
  expect(grown).toBeGreaterThan(lean);
});

test('a fresh process on a small input gets 2 MiB semi-spaces at once (the built module, before and after)', async () => {
  const dir = folder();
  writeFileSync(join(dir, 'specs/a.json'), '{"openapi":"3.0.3"}');
  const script = [
    `import { sizeYoungGeneration, youngGenerationBytes } from ${JSON.stringify(join(ROOT, 'dist/cli/young-generation.js'))};`,
    'const before = youngGenerationBytes();',
    `sizeYoungGeneration([${JSON.stringify(join(dir, 'specs'))}]);`,
    'console.log(JSON.stringify([before, youngGenerationBytes()]));',
  ].join('\n');
  const out = await new Promise<string>((done, fail) =>
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { env: { ...process.env, NODE_OPTIONS: '' } },
      (err, stdout, stderr) => (err ? fail(new Error(`${err.message}\n${stderr}`)) : done(stdout)),
    ),
  );
  const [before, after] = JSON.parse(out) as [number, number];
  expect(before).toBeLessThan(SMALL_INPUT_YOUNG_BYTES);
  expect(after).toBe(SMALL_INPUT_YOUNG_BYTES);
});
