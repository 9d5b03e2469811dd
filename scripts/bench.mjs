#!/usr/bin/env node
// Runs every benchmark script in turn (each prints its own table): generate per spec (time, memory, bytes
// per artifact vs openapi-typescript), serve vs a peer MCP server, the runtime and the cache. Needs `npm run build` first.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
for (const name of ['bench-generate.mjs', 'bench-serve.mjs', 'bench-runtime.mjs', 'bench-cache.mjs']) {
  const script = join(root, 'scripts', name);
  if (!existsSync(script)) throw new Error(`missing benchmark script ${name}`);
  console.log(`\n# ${name}`);
  execFileSync(process.execPath, [script], { stdio: 'inherit' });
}
