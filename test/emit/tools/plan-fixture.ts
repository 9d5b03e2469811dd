/** Hand-built plans for emitter unit tests (classify is another stage; these fix its output). */
import type { ApiPlan, Carrier, Plan, PlanEntry } from '../../../src/classify/types.js';
import { operationBaseName } from '../../../src/ir/names.js';
import { normalizeSchemas } from '../../../src/ir/schemas.js';
import type { ApiModel, HttpOperation, SpecFormat, ToolOperation } from '../../../src/ir/types.js';

export function toolOp(name: string, inputSchema: ToolOperation['inputSchema'], extra: Partial<ToolOperation> = {}): ToolOperation {
  return {
    kind: 'tool', key: `tool:${name}`, name, toolName: name, format: 'mcp', inputSchema, deprecated: false,
    extensions: {}, source: { file: 'tools.json', pointer: '/tools/0' }, ...extra,
  };
}

/** Named as the IR names it (client method name), so tool names can be checked against it. */
export function httpOp(method: HttpOperation['method'], path: string, extra: Partial<HttpOperation> = {}): HttpOperation {
  return {
    kind: 'http', key: `${method.toUpperCase()} ${path}`, name: operationBaseName(method, path, extra.operationId), method, path,
    tags: [], parameters: [], responses: [], servers: [], pathExtensions: {}, deprecated: false, extensions: {},
    source: { file: 'api.json', pointer: `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}` }, ...extra,
  };
}

export function entry(operation: HttpOperation | ToolOperation, write: boolean, extra: Partial<PlanEntry> = {}): PlanEntry {
  return {
    operation, effect: write ? 'write' : 'read', effectReasons: [], class: write ? 'irreversible' : 'read-only',
    mechanism: write ? 'fail-closed' : 'none', carrier: null as Carrier | null, keyStrategy: write ? 'intent' : null,
    reasons: [], ...extra,
  };
}

/** An OpenAPI `root` gets its schemas in the 3.1 form, as `buildApiModel` gives every emitter. */
export function planOf(id: string, entries: PlanEntry[], root: unknown = {}, format: ApiModel['format'] = 'mcp'): Plan {
  const openapi = format === 'openapi2' || format === 'openapi3.0' || format === 'openapi3.1';
  const api: ApiModel = {
    id, file: `${id}.json`, format, servers: [], operations: entries.map((e) => e.operation), events: [],
    root: openapi ? normalizeSchemas(root, format as SpecFormat) : root,
  };
  const apiPlan: ApiPlan = { api, entries };
  return { apis: [apiPlan], diagnostics: [] };
}
