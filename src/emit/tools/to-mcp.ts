/** MCP `tools/list` result shape (2025-11-25): `{ tools: [{ name, title?, description, inputSchema, outputSchema?, annotations }] }`. */
import type { ToolSpec } from './tool-spec.js';

type Obj = Record<string, unknown>;

/**
 * `mcpHeader`: mark the key property with `x-mcp-header` so an MCP client/gateway can also send it as an
 * `Idempotency-Key` header. MCP form only: OpenAI strict and Anthropic schemas must not carry it.
 */
export function toMcpTool(spec: ToolSpec, name: string, mcpHeader: boolean): Obj {
  let inputSchema = spec.inputSchema;
  if (mcpHeader && spec.keyProperty !== undefined) {
    // Shallow copies only: the spec's schema is shared with the other formats and must stay as built.
    const props = { ...(inputSchema.properties as Obj) };
    props[spec.keyProperty] = { ...(props[spec.keyProperty] as Obj), 'x-mcp-header': 'Idempotency-Key' };
    inputSchema = { ...inputSchema, properties: props };
  }
  const tool: Obj = { name };
  if (spec.title !== undefined) tool.title = spec.title;
  tool.description = spec.description;
  tool.inputSchema = inputSchema;
  if (spec.outputSchema !== undefined) tool.outputSchema = spec.outputSchema;
  tool.annotations = spec.annotations;
  return tool;
}
