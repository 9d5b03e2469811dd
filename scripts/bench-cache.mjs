#!/usr/bin/env node
// Benchmark (not a test): `idemgen generate` on the full GitHub spec, cold vs an unchanged re-run that the
// input cache answers. Needs `npm run build` first. Prints medians of N runs (default 3).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const spec = join(root, 'node_modules', '@octokit', 'openapi', 'generated', 'api.github.com.json');
const runs = Number(process.env.RUNS ?? 3);
const bin = join(root, 'bin', 'idemgen.js');

function timeRun(cwd) {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, [bin, 'generate', 'api.github.com.json', '--out', 'out', '--quiet'], {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, CI: 'true' },
  });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cold = [];
const warm = [];
for (let i = 0; i < runs; i += 1) {
  const cwd = mkdtempSync(join(tmpdir(), 'idemgen-bench-cache-'));
  cpSync(spec, join(cwd, 'api.github.com.json'));
  cold.push(timeRun(cwd));
  warm.push(timeRun(cwd));
  rmSync(cwd, { recursive: true, force: true });
}
console.log(`GitHub spec (${spec.replace(`${root}/`, '')}), ${runs} runs, median wall time:`);
console.log(`  cold run                 ${median(cold).toFixed(0)} ms`);
console.log(
  `  unchanged re-run (cache) ${median(warm).toFixed(0)} ms   (${(median(cold) / median(warm)).toFixed(1)}× faster)`,
);
