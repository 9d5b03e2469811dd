/**
 * Native-key detection held to the floor it reached on our hand-labelled benchmark
 * (test/fixtures/key-benchmark/labels.json; `node scripts/key-benchmark.mjs` prints the table).
 */
import { describe, expect, it } from 'vitest';
import { readLabels, runBenchmark, scores, type Outcome } from './key-benchmark.js';

/** Reached when the benchmark was committed: every kind at 1.000 (the goal: P ≥ 0.98, R ≥ 0.95). */
const FLOOR = { precision: 1, recall: 1 };

describe('native-key benchmark', () => {
  const labels = readLabels();

  it('is ≥ 400 write operations from ≥ 40 providers, each decided by a quoted field or page', () => {
    expect(labels.length).toBeGreaterThanOrEqual(400);
    expect(new Set(labels.map((l) => l.provider)).size).toBeGreaterThanOrEqual(40);
    expect(new Set(labels.map((l) => `${l.spec} ${l.operation}`)).size).toBe(labels.length);
    for (const l of labels) {
      expect(l.evidence.length).toBeGreaterThan(10);
      expect(l.operation).toMatch(/^(POST|PUT|PATCH|DELETE) /);
    }
    // Stratified: every carrier kind and plenty of providers without a key.
    const kinds = new Set(labels.flatMap((l) => (l.label === 'none' ? [] : [l.label.in])));
    expect([...kinds].sort()).toEqual(['body', 'form', 'header', 'query']);
    const keyed = new Set(labels.filter((l) => l.label !== 'none').map((l) => l.provider));
    expect(new Set(labels.map((l) => l.provider)).size - keyed.size).toBeGreaterThanOrEqual(20);
  });

  it(`precision ≥ ${FLOOR.precision} and recall ≥ ${FLOOR.recall} per carrier kind`, { timeout: 300_000 }, async () => {
    const outcomes: Outcome[] = await runBenchmark(labels);
    const wrong = outcomes
      .filter((o) => !o.ok)
      .map((o) => `${o.label.spec} ${o.label.operation}: predicted ${o.predicted}`);
    expect(wrong).toEqual([]);
    for (const s of scores(outcomes)) {
      expect(s.precision, s.kind).toBeGreaterThanOrEqual(FLOOR.precision);
      expect(s.recall, s.kind).toBeGreaterThanOrEqual(FLOOR.recall);
    }
  });
});
