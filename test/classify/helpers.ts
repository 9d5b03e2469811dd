/** Operations for table-driven classifier tests (classify is pure: no loader needed), built by test/helpers/plan.ts. */
import { classify } from '../../src/classify/index.js';
import type { PlanEntry, Plan } from '../../src/classify/types.js';
import { resolveConfig, type UserConfig } from '../../src/config/types.js';
import type { ApiModel, HttpMethod, HttpOperation, Operation, ToolOperation } from '../../src/ir/types.js';
import { httpOp, toolOp } from '../helpers/plan.js';

const escapeSegment = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** An operation as a spec.yaml path item would give it (the classifier reads servers for the provider registry). */
export function http(method: HttpMethod, path: string, extra: Partial<HttpOperation> = {}): HttpOperation {
  return httpOp(method, path, {
    name: `${method}${path.replace(/[^A-Za-z0-9]/g, '_')}`,
    source: { file: 'spec.yaml', pointer: `/paths/${escapeSegment(path)}/${method}` },
    servers: ['https://api.example.com'],
    ...extra,
  });
}

export function tool(toolName: string, extra: Partial<ToolOperation> = {}): ToolOperation {
  return toolOp(toolName, { type: 'object', properties: {} }, extra);
}

export function apiOf(operations: Operation[], root: unknown = {}): ApiModel {
  const sorted = [...operations].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const file = operations[0]?.source.file ?? 'spec.yaml';
  return { id: 'api', file, format: 'openapi3.0', servers: [], operations: sorted, events: [], root };
}

export interface Classified {
  entry: PlanEntry;
  plan: Plan;
}

/** Classify `op` inside an API that also holds `others`; returns its entry and the whole plan. */
export function classifyOne(
  op: Operation,
  opts: { config?: UserConfig; others?: Operation[]; root?: unknown } = {},
): Classified {
  const plan = classify([apiOf([op, ...(opts.others ?? [])], opts.root)], resolveConfig(opts.config ?? {}));
  const entry = plan.apis[0].entries.find((e) => e.operation.key === op.key)!;
  return { entry, plan };
}

export function rules(entry: PlanEntry): string[] {
  return [...entry.effectReasons, ...entry.reasons].map((r) => r.rule);
}

export function codes(plan: Plan): string[] {
  return plan.diagnostics.map((d) => d.code);
}
