#!/usr/bin/env node
// Runs every benchmark script in turn (each prints its own table): generate per spec (time, memory, bytes
// per artifact vs openapi-typescript and the floor), serve vs a peer MCP server, the runtime and the cache.
// Needs `npm run build` first. `--against DIR` (a built checkout of another commit): generate runs that
// commit's CLI in the same alternation, and bench-runtime-against.mjs compares the per-call cost of each
// side's generated code on its own runtime, interleaved in one process.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const against = args.includes('--against') ? ['--against', args[args.indexOf('--against') + 1]] : [];
const scripts = [
  ['bench-generate.mjs', against],
  ['bench-serve.mjs', []],
  ['bench-runtime.mjs', []],
  ...(against.length > 0 ? [['bench-runtime-against.mjs', against]] : []),
  ['bench-cache.mjs', []],
];
for (const [name, extra] of scripts) {
  const script = join(root, 'scripts', name);
  if (!existsSync(script)) throw new Error(`missing benchmark script ${name}`);
  console.log(`\n# ${name} ${extra.join(' ')}`.trimEnd());
  execFileSync(process.execPath, [script, ...extra], { stdio: 'inherit' });
}
