/**
 * One target-neutral tool per plan entry: name, texts, normalized input schema (with the required key
 * on writes), output schema and annotations. The to-<format>.ts modules render it per target.
 */
import type { ApiPlan, PlanEntry } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import type { SourceRef, ToolAnnotations, ToolOperation } from '../../ir/types.js';
import { followRef } from '../../json-pointer/refs.js';
import { buildAnnotations } from './annotations.js';
import { fitBudget } from './budget.js';
import { fitBudgetLazily } from './budget-lazy.js';
import { finishHttpInput, startHttpInput, type BuiltInput } from './http-input.js';
import type { DegradeLog } from './degrade.js';
import { describeEntry } from './description.js';
import { addIdempotencyKey } from './idempotency-key.js';
import { toolName } from './names.js';
import { buildToolInput, normalizeToolSchema } from './tool-input.js';

type Obj = Record<string, unknown>;

export interface ToolSpec {
  /** Operation key (`POST /v1/charges`, `tool:send_email`): what reverse maps point back to. */
  key: string;
  /** The name before target sanitizing: the tool's own name, or the IR (client method) name. */
  name: string;
  title?: string;
  description: string;
  inputSchema: Obj;
  outputSchema?: Obj;
  annotations: ToolAnnotations;
  /** The property that carries the idempotency key (write tools only). */
  keyProperty?: string;
  source: SourceRef;
  /** HTTP operations: where each argument goes in the request (the tool runtime's routing, handlers/bindings.ts). */
  http?: Pick<BuiltInput, 'routes' | 'body'>;
}

/** A ref that does not resolve, or only leads through other refs back to itself. */
function loaderReported(root: unknown, ref: string): boolean {
  return followRef(root, { $ref: ref }, '').value === undefined;
}

export function buildToolSpec(apiPlan: ApiPlan, entry: PlanEntry, config: ResolvedConfig, log: DegradeLog): ToolSpec {
  const op = entry.operation;
  const started = op.kind === 'http' ? startHttpInput(op, apiPlan.api, entry.carrier) : undefined;
  // Definitions are normalized on demand (budget-lazy.ts) unless a body-carried key must be cut out of them first.
  const lazy = started !== undefined && !started.dropsCarrier;
  const built =
    started === undefined
      ? buildToolInput(op as ToolOperation)
      : lazy
        ? started.built
        : finishHttpInput(started, entry.carrier);
  const isWrite = entry.effect === 'write';
  const ttl = entry.ttlSeconds ?? config.tools.defaultTtlSeconds;
  // `method-idempotent`: the method makes a repeat harmless; nothing would read a key, so the tool takes none.
  const keyed = isWrite && entry.mechanism !== 'method-idempotent';
  const keyProperty = keyed ? addIdempotencyKey(built.schema, entry, ttl) : undefined;
  const budget = config.tools.schemaBudget;
  const trimmed = lazy ? fitBudgetLazily(built.schema, started.builder, budget) : fitBudget(built.schema, budget);
  for (const ref of new Set(built.unresolved)) {
    // The loader already reported every broken ref of an OpenAPI document at its own line (unresolved_ref,
    // remote_ref, ref_cycle); repeating it per tool would be a second diagnostic for one problem.
    if (op.kind === 'http' && loaderReported(apiPlan.api.root, ref)) continue;
    log.unresolvedRef(op.key, op.source, ref);
  }
  if (trimmed > 0) log.trimmed(op.key, op.source, trimmed, budget);
  const spec: ToolSpec = {
    key: op.key,
    name: toolName(op),
    description: describeEntry(entry),
    inputSchema: built.schema,
    annotations: buildAnnotations(entry, keyProperty !== undefined),
    keyProperty,
    source: op.source,
  };
  if (built.routes !== undefined) spec.http = { routes: built.routes, ...(built.body ? { body: built.body } : {}) };
  const title = op.kind === 'tool' ? (op.title ?? op.annotations?.title) : op.summary;
  if (typeof title === 'string' && title !== '') spec.title = title;
  if (op.kind === 'tool' && op.outputSchema !== undefined)
    spec.outputSchema = normalizeToolSchema(op.outputSchema).schema;
  return spec;
}
