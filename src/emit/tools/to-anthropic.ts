/** Anthropic Messages tools: `[{ name, description, input_schema }]` (JSON Schema, no strict subset needed). */
import type { ToolSpec } from './tool-spec.js';

type Obj = Record<string, unknown>;

export function toAnthropicTool(spec: ToolSpec, name: string): Obj {
  return { name, description: spec.description, input_schema: spec.inputSchema };
}
