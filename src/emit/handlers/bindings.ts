/**
 * `buildToolBindings`: the plan turned into `ToolBinding`s — plain data the tool runtime executes
 * (runtime/tools). A binding is the operation record (emit/operation-record.ts, the generated client's `ops`
 * entry) plus the tool's face from the tool model (names, input schema, argument routes, annotations; the
 * strict OpenAI form is derived from the schema at run time, runtime/tools/strict), so a tool call through the
 * runtime is the call the generated client makes. HTTP operations only: a tool-definition input has no
 * request to send.
 */
import type { ApiPlan, PlanEntry } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import type { HttpOperation } from '../../ir/types.js';
import type { ArgRoute, ToolBinding } from '@idemgen/runtime/tools';
import { operationRecord } from '../operation-record.js';
import { buildTool, targetNames, type TargetNames, type ToolSpec } from '../tool-model.js';
import { bindingSecurity } from './security.js';

/**
 * A query route gets its parameter's style when that is not the runtime's brackets: the record's own
 * `queryStyles` (derived once, emit/client/query-style.ts), so the route and the record cannot disagree.
 */
function styledRoute(route: ArgRoute, styles: ToolBinding['queryStyles']): ArgRoute {
  const style = route.in === 'query' ? styles?.[route.name] : undefined;
  return style === undefined ? route : { ...route, style };
}

function annotationsOf(spec: ToolSpec): ToolBinding['annotations'] {
  const out: NonNullable<ToolBinding['annotations']> = {};
  for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    const v = spec.annotations[k];
    if (typeof v === 'boolean') out[k] = v;
  }
  return out;
}

export interface ToolSpecPair {
  spec: ToolSpec;
}

/**
 * The binding of one HTTP entry: its record (a tool taking a key states the window it promises the model,
 * config `tools.defaultTtlSeconds`), then the face of its tool in the tool model (emit/tool-model.ts).
 */
export function bindingOf(
  apiPlan: ApiPlan,
  entry: PlanEntry,
  op: HttpOperation,
  names: TargetNames,
  config: ResolvedConfig,
  { spec }: ToolSpecPair,
): ToolBinding {
  const keyed = spec.keyProperty !== undefined;
  const { operation, body, ...record } = operationRecord(
    apiPlan,
    entry,
    op,
    keyed ? { toolWindowSeconds: config.tools.defaultTtlSeconds } : {},
  );
  const b: ToolBinding = {
    operation,
    clientMethod: op.name,
    effect: entry.effect,
    ...record,
    names: { mcp: names.mcp.get(op.key)!, openai: names.openai.get(op.key)!, anthropic: names.anthropic.get(op.key)! },
    description: spec.description,
    routes: (spec.http?.routes ?? []).map((r) => styledRoute(r, record.queryStyles)),
    inputSchema: spec.inputSchema,
  };
  if (op.tags.length > 0) b.tags = [...op.tags];
  if (spec.title !== undefined) b.title = spec.title;
  if (keyed) b.keyProperty = spec.keyProperty;
  // The tool's body argument carries the record's body; a tool without one sends none.
  const arg = spec.http?.body;
  if (arg !== undefined && body !== undefined) b.body = { ...body, property: arg.property, required: arg.required };
  if (entry.impact !== undefined) b.impact = entry.impact;
  const security = bindingSecurity(op, apiPlan.api.root);
  if (security !== undefined) b.security = security;
  b.annotations = annotationsOf(spec);
  return b;
}

/** One binding at a time (a streaming emitter never holds them all), in plan order. */
export function* eachToolBinding(apiPlan: ApiPlan, config: ResolvedConfig): Generator<ToolBinding> {
  const names = targetNames(apiPlan);
  for (const entry of apiPlan.entries) {
    const op = entry.operation;
    if (op.kind === 'http')
      yield bindingOf(apiPlan, entry, op, names, config, buildTool(apiPlan, entry, names, config));
  }
}

/** Every name (all formats) of the API's HTTP tools, without building the bindings. */
export function toolBindingNames(apiPlan: ApiPlan): string[] {
  const names = targetNames(apiPlan);
  const set = new Set<string>();
  for (const e of apiPlan.entries) {
    if (e.operation.kind !== 'http') continue;
    for (const m of [names.mcp, names.openai, names.anthropic]) set.add(m.get(e.operation.key)!);
  }
  return [...set].sort();
}

/** One binding per HTTP operation of the API, in plan order (sorted by operation key). */
export function buildToolBindings(apiPlan: ApiPlan, config: ResolvedConfig): ToolBinding[] {
  return [...eachToolBinding(apiPlan, config)];
}
