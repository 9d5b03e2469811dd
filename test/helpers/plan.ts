/**
 * The one plan builder for tests: hand-built operations, plan entries and plans, so an emitter or the
 * runtime is tested against a fixed classification (classify is another stage with its own tests).
 * `planFor` plans a loaded API with explicit per-operation overrides.
 */
import type { ApiPlan, Mechanism, OperationClass, Plan, PlanEntry } from '../../src/classify/types.js';
import { operationBaseName } from '../../src/ir/names.js';
import { normalizeSchemas } from '../../src/ir/schemas.js';
import type { ApiModel, HttpOperation, SpecFormat, ToolOperation } from '../../src/ir/types.js';

export function toolOp(
  name: string,
  inputSchema: ToolOperation['inputSchema'],
  extra: Partial<ToolOperation> = {},
): ToolOperation {
  return {
    kind: 'tool',
    key: `tool:${name}`,
    name,
    toolName: name,
    format: 'mcp',
    inputSchema,
    deprecated: false,
    extensions: {},
    source: { file: 'tools.json', pointer: '/tools/0' },
    ...extra,
  };
}

/** Named as the IR names it (client method name), so tool names can be checked against it. */
export function httpOp(
  method: HttpOperation['method'],
  path: string,
  extra: Partial<HttpOperation> = {},
): HttpOperation {
  return {
    kind: 'http',
    key: `${method.toUpperCase()} ${path}`,
    name: operationBaseName(method, path, extra.operationId),
    method,
    path,
    tags: [],
    parameters: [],
    responses: [],
    servers: [],
    pathExtensions: {},
    deprecated: false,
    extensions: {},
    source: { file: 'api.json', pointer: `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}` },
    ...extra,
  };
}

/** The class each mechanism implies (docs/concepts.md#mechanisms): the default an entry gets unless `extra` says otherwise. */
const CLASS_OF: Record<Mechanism, OperationClass> = {
  none: 'read-only',
  'native-key': 'native-key',
  'dedup-table': 'owned-store',
  'content-address': 'owned-store',
  'unique-insert': 'owned-store',
  saga: 'compensatable',
  'fail-closed': 'irreversible',
  'method-idempotent': 'method-idempotent',
};

/** A plan entry: `none` is a read (no key); every other mechanism a write keyed by intent. */
export function entry(
  operation: HttpOperation | ToolOperation,
  mechanism: Mechanism,
  extra: Partial<PlanEntry> = {},
): PlanEntry {
  const read = mechanism === 'none';
  return {
    operation,
    effect: read ? 'read' : 'write',
    effectReasons: [],
    class: CLASS_OF[mechanism],
    mechanism,
    carrier: null,
    keyStrategy: read ? null : 'intent',
    reasons: [],
    ...extra,
  };
}

/** An OpenAPI `root` gets its schemas in the 3.1 form, as `buildApiModel` gives every emitter. */
export function planOf(id: string, entries: PlanEntry[], root: unknown = {}, format: ApiModel['format'] = 'mcp'): Plan {
  const openapi = format === 'openapi2' || format === 'openapi3.0' || format === 'openapi3.1';
  const api: ApiModel = {
    id,
    file: `${id}.json`,
    format,
    servers: [],
    operations: entries.map((e) => e.operation),
    events: [],
    root: openapi ? normalizeSchemas(root, format as SpecFormat) : root,
  };
  const apiPlan: ApiPlan = { api, entries };
  return { apis: [apiPlan], diagnostics: [] };
}

export type EntryOverride = Partial<
  Pick<
    PlanEntry,
    | 'class'
    | 'mechanism'
    | 'carrier'
    | 'keyStrategy'
    | 'ttlSeconds'
    | 'compensation'
    | 'compensationAddress'
    | 'reasons'
  >
>;

const READ = new Set(['get', 'head', 'options', 'trace']);

/** Plan a loaded API: reads are plain, writes fail closed (TTL 1 day) unless `overrides` names their entry. */
export function planFor(api: ApiModel, overrides: Record<string, EntryOverride> = {}): ApiPlan {
  const entries = api.operations.map((operation) => {
    const read = operation.kind === 'http' && READ.has(operation.method);
    const base = read
      ? entry(operation, 'none', { reasons: [{ rule: 'effect/http-method', detail: 'safe method' }] })
      : entry(operation, 'fail-closed', {
          keyStrategy: null,
          ttlSeconds: 86400,
          reasons: [{ rule: 'class/irreversible', detail: 'no native key, store not owned, no inverse' }],
        });
    return { ...base, ...(overrides[operation.key] ?? {}) };
  });
  return { api, entries };
}
