/**
 * How one `ToolBinding` is listed over MCP: its schema without the server-side arguments (account ids
 * and the like come from configuration and are never asked of the model), and `_meta` saying what
 * makes the tool safe to retry — the mechanism and how long a key is remembered.
 */
import type { ToolBinding } from '../tools/types.js';

/** `_meta` keys (MCP `_meta` names use a `prefix/` namespace, like tool-result.ts). */
export const MECHANISM_META = 'idemgen/mechanism';
export const WINDOW_META = 'idemgen/dedupWindowSeconds';
export const OPERATION_META = 'idemgen/operation';

export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta: Record<string, unknown>;
}

/** The input schema minus the properties the server fills in itself. */
export function withoutServerArguments(
  schema: Record<string, unknown>,
  fixed: ReadonlySet<string>,
): Record<string, unknown> {
  if (fixed.size === 0) return schema;
  const properties = { ...((schema.properties as Record<string, unknown> | undefined) ?? {}) };
  for (const name of fixed) delete properties[name];
  const out: Record<string, unknown> = { ...schema, properties };
  if (Array.isArray(schema.required)) out.required = (schema.required as string[]).filter((r) => !fixed.has(r));
  return out;
}

export function toolMeta(binding: ToolBinding): Record<string, unknown> {
  const meta: Record<string, unknown> = { [OPERATION_META]: binding.operation, [MECHANISM_META]: binding.mechanism };
  if (binding.effect === 'write' && binding.ttlSeconds !== undefined) meta[WINDOW_META] = binding.ttlSeconds;
  return meta;
}

export function listedTool(binding: ToolBinding, fixed: ReadonlySet<string>): ListedTool {
  const tool: ListedTool = {
    name: binding.names.mcp,
    description: binding.description,
    inputSchema: withoutServerArguments(binding.inputSchema, fixed),
    _meta: toolMeta(binding),
  };
  if (binding.title !== undefined) tool.title = binding.title;
  if (binding.annotations !== undefined) tool.annotations = { ...binding.annotations };
  return tool;
}
