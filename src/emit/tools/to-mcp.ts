/** MCP `tools/list` result shape (2025-11-25): `{ tools: [{ name, title?, description, inputSchema, outputSchema?, annotations }] }`. */
import type { ToolSpec } from './tool-spec.js';

type Obj = Record<string, unknown>;

/**
 * `mcpHeader`: mark the key property with `x-mcp-header` so an MCP client/gateway can also send it as an
 * `Idempotency-Key` header. MCP form only: OpenAI strict and Anthropic schemas must not carry it.
 */
export function toMcp(specs: ToolSpec[], names: Map<string, string>, mcpHeader: boolean): Obj {
  const tools = specs.map((spec) => {
    let inputSchema = spec.inputSchema;
    if (mcpHeader && spec.keyProperty !== undefined) {
      const props = { ...(inputSchema.properties as Obj) };
      props[spec.keyProperty] = { ...(props[spec.keyProperty] as Obj), 'x-mcp-header': 'Idempotency-Key' };
      inputSchema = { ...inputSchema, properties: props };
    }
    const tool: Obj = { name: names.get(spec.key) };
    if (spec.title !== undefined) tool.title = spec.title;
    tool.description = spec.description;
    tool.inputSchema = inputSchema;
    if (spec.outputSchema !== undefined) tool.outputSchema = spec.outputSchema;
    tool.annotations = spec.annotations;
    return tool;
  });
  return { tools };
}
