/**
 * `buildToolBindings`: the plan turned into `ToolBinding`s — plain data the tool runtime executes
 * (runtime/tools). Built from the same pieces as the tools artifact (names, input schema; the strict
 * OpenAI form is derived from the schema at run time, runtime/tools/strict) and the client (body encoding, key limits, mechanism), so a tool call through the
 * runtime is the call the generated client makes. HTTP operations only: a tool-definition input has no
 * request to send.
 */
import type { ApiPlan, PlanEntry } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import type { HttpOperation } from '../../ir/types.js';
import type { ArgRoute, ToolBinding } from '../../runtime/tools/types.js';
import { queryStyleOf } from '../client/query-style.js';
import { encodingOf } from '../client/media.js';
import { keyLimits } from '../client/key-limits.js';
import { replaySignals } from '../replay-signals.js';
import { buildTool, targetNames, type TargetNames, type ToolSpec } from '../tool-model.js';
import { bindingSecurity } from './security.js';

function bodyOf(spec: ToolSpec, op: HttpOperation): ToolBinding['body'] {
  const body = spec.http?.body;
  if (body === undefined) return undefined;
  const media = op.requestBody?.content.find((c) => c.mediaType === body.mediaType);
  const encoding = encodingOf(body.mediaType ?? 'application/json', media?.schema);
  const out: NonNullable<ToolBinding['body']> = { property: body.property, encoding, required: body.required };
  if (body.mediaType !== undefined) out.mediaType = body.mediaType;
  return out;
}

/** A query route gets its parameter's style when that is not the runtime's brackets (client/query-style.ts). */
function styledRoute(route: ArgRoute, op: HttpOperation, root: unknown): ArgRoute {
  if (route.in !== 'query') return route;
  const param = op.parameters.find((p) => p.in === 'query' && p.name === route.name);
  const style = param === undefined ? undefined : queryStyleOf(param, root);
  return style === undefined ? route : { ...route, style };
}

/** Per API: operation key → its first HTTP operation (a saga looks its inverse up; Graph has ~11,000 operations). */
const httpByKey = new WeakMap<ApiPlan['api'], Map<string, HttpOperation>>();

function httpOperation(api: ApiPlan['api'], key: string): HttpOperation | undefined {
  let byKey = httpByKey.get(api);
  if (byKey === undefined) {
    byKey = new Map();
    for (const o of api.operations) if (o.kind === 'http' && !byKey.has(o.key)) byKey.set(o.key, o);
    httpByKey.set(api, byKey);
  }
  return byKey.get(key);
}

/** OP-5: the inverse and its address as classify decided it; nothing when it cannot be addressed. */
function compensationOf(entry: PlanEntry, apiPlan: ApiPlan): ToolBinding['compensation'] {
  if (entry.mechanism !== 'saga' || entry.compensation === undefined || entry.compensationAddress === undefined)
    return undefined;
  const inverse = httpOperation(apiPlan.api, entry.compensation);
  if (inverse === undefined) return undefined;
  return {
    operation: inverse.key,
    method: inverse.method.toUpperCase(),
    path: inverse.path,
    address: Object.fromEntries(entry.compensationAddress.map((a) => [a.param, { in: a.in, name: a.name }])),
  };
}

function annotationsOf(spec: ToolSpec): ToolBinding['annotations'] {
  const out: NonNullable<ToolBinding['annotations']> = {};
  for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    const v = spec.annotations[k];
    if (typeof v === 'boolean') out[k] = v;
  }
  return out;
}

function keyFields(entry: PlanEntry, op: HttpOperation, root: unknown, config: ResolvedConfig): Partial<ToolBinding> {
  const c = entry.carrier;
  const native = entry.mechanism === 'native-key' && c !== null && c.in !== 'argument';
  const out: Partial<ToolBinding> = {};
  if (native) {
    out.carrier = { in: c.in as 'header' | 'query' | 'body' | 'form', name: c.name };
    // The OASIS pair: the first attempt's time in its own header, as the client's description sends it.
    if (c.in === 'header' && c.firstSent !== undefined) out.carrier.firstSent = c.firstSent;
    if (c.in === 'body' || c.in === 'form') {
      // The full body path (JSON:API `data.attributes.…`, envelopes), and one path per oneOf variant.
      out.carrier.path = [...c.path];
      const paths = (c.variants ?? []).map((v) => v.path);
      const distinct = paths.filter((p, i) => paths.findIndex((q) => q.join('\u0000') === p.join('\u0000')) === i);
      if (distinct.length > 1) out.carrier.paths = distinct;
    }
    out.keyLimits = keyLimits(root, op, c);
    const replay = replaySignals(entry, op, root);
    if (replay !== undefined) out.replay = replay;
    if (entry.ttlSeconds !== undefined) out.ttlSeconds = entry.ttlSeconds;
  } else {
    // The window the tool description promises the model (tools/idempotency-key.ts).
    out.ttlSeconds = entry.ttlSeconds ?? config.tools.defaultTtlSeconds;
  }
  return out;
}

export interface ToolSpecPair {
  spec: ToolSpec;
}

/** The binding of one HTTP entry from its tool in the tool model (emit/tool-model.ts). */
export function bindingOf(
  apiPlan: ApiPlan,
  entry: PlanEntry,
  op: HttpOperation,
  names: TargetNames,
  config: ResolvedConfig,
  { spec }: ToolSpecPair,
): ToolBinding {
  const b: ToolBinding = {
    names: { mcp: names.mcp.get(op.key)!, openai: names.openai.get(op.key)!, anthropic: names.anthropic.get(op.key)! },
    operation: op.key,
    method: op.name,
    http: { method: op.method.toUpperCase(), path: op.path },
    effect: entry.effect,
    mechanism: entry.mechanism,
    description: spec.description,
    routes: (spec.http?.routes ?? []).map((r) => styledRoute(r, op, apiPlan.api.root)),
    inputSchema: spec.inputSchema,
  };
  if (op.tags.length > 0) b.tags = [...op.tags];
  if (spec.title !== undefined) b.title = spec.title;
  if (spec.keyProperty !== undefined) {
    b.keyProperty = spec.keyProperty;
    Object.assign(b, keyFields(entry, op, apiPlan.api.root, config));
  }
  const body = bodyOf(spec, op);
  if (body !== undefined) b.body = body;
  const compensation = compensationOf(entry, apiPlan);
  if (compensation !== undefined) b.compensation = compensation;
  if (entry.impact !== undefined) b.impact = entry.impact;
  if (entry.verification !== undefined) b.verification = entry.verification;
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
