#!/usr/bin/env node
/**
 * Native-key detection against the hand-labelled benchmark (test/fixtures/key-benchmark/labels.json):
 * precision and recall per carrier kind, then every miss and false alarm.
 *
 *   node scripts/key-benchmark.mjs           # table and disagreements
 *   node scripts/key-benchmark.mjs --json    # the scores as JSON
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const here = path.dirname(fileURLToPath(import.meta.url));
const { runBenchmark, scores, readLabels } = await import(path.join(here, '../test/classify/key-benchmark.ts'));

const labels = readLabels();
const started = Date.now();
const outcomes = await runBenchmark(labels);
const table = scores(outcomes);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(table, null, 2));
} else {
  const providers = new Set(labels.map((l) => l.provider)).size;
  const carriers = labels.filter((l) => l.label !== 'none').length;
  console.log(
    `operations: ${labels.length}  providers: ${providers}  labelled carriers: ${carriers}  time: ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  console.log('kind     labelled  predicted  correct  precision  recall');
  for (const s of table)
    console.log(
      `${s.kind.padEnd(8)} ${String(s.labelled).padStart(8)} ${String(s.predicted).padStart(10)} ${String(s.correct).padStart(8)} ${s.precision.toFixed(3).padStart(10)} ${s.recall.toFixed(3).padStart(7)}`,
    );
  const possible = outcomes.filter((o) => o.possible);
  console.log(`\npossible_key_carrier findings: ${possible.length}`);
  for (const o of outcomes.filter((x) => !x.ok)) {
    const want = o.label.label === 'none' ? 'none' : `${o.label.label.in} ${o.label.label.name}`;
    console.log(
      `  ${o.label.spec} ${o.label.operation}: labelled ${want}, predicted ${o.predicted}${o.possible ? ' (possible_key_carrier)' : ''}`,
    );
  }
}
