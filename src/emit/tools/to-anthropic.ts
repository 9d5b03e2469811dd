/** Anthropic Messages tools: `[{ name, description, input_schema }]` (JSON Schema, no strict subset needed). */
import type { ToolSpec } from './tool-spec.js';

type Obj = Record<string, unknown>;

export function toAnthropic(specs: ToolSpec[], names: Map<string, string>): Obj[] {
  return specs.map((spec) => ({ name: names.get(spec.key), description: spec.description, input_schema: spec.inputSchema }));
}
