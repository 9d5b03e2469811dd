/** Input and output schemas of a tool-definition input (MCP, OpenAI, Anthropic), normalized to 2020-12. */
import type { JsonSchema, ToolOperation } from '../../ir/types.js';
import { createDefs } from './defs.js';
import type { BuiltInput } from './http-input.js';
import { normalizeRoot } from './normalize.js';

type Obj = Record<string, unknown>;

/** Refs inside a tool schema are relative to that schema (zod-to-json-schema's `#/definitions/…`). */
export function normalizeToolSchema(schema: JsonSchema | undefined): BuiltInput {
  const builder = createDefs(schema);
  const out = normalizeRoot(schema ?? {}, builder);
  const obj: Obj = typeof out === 'boolean' ? {} : { ...out };
  // MCP 2025-11-25: inputSchema/outputSchema are JSON Schema objects whose type is "object".
  obj.type = 'object';
  return { schema: obj, unresolved: builder.unresolved };
}

export function buildToolInput(op: ToolOperation): BuiltInput {
  return normalizeToolSchema(op.inputSchema);
}
