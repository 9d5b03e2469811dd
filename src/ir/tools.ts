/** Tool lists (MCP, OpenAI chat/Responses, Anthropic) → ToolOperations. */
import { detectToolList, toolFormatOf } from '../load/detect.js';
import type { IrContext } from './context.js';
import { extensionsOf, stringOrUndefined } from './context.js';
import { appendPointer } from './pointer.js';
import { isObject } from './refs.js';
import type { JsonSchema, ToolAnnotations, ToolFormat, ToolOperation } from './types.js';

type ToolContext = Omit<IrContext, 'format' | 'root'>;

// OpenAI allows a function without `parameters`: it then takes no arguments.
const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {} };

function schemaOr(v: unknown, fallback: JsonSchema): JsonSchema {
  return isObject(v) || typeof v === 'boolean' ? (v as JsonSchema) : fallback;
}

/** The fields of one tool as its format spells them. */
function toolFields(format: ToolFormat, item: Record<string, unknown>): { def: Record<string, unknown>; input: unknown } {
  switch (format) {
    case 'openai-chat':
      return { def: item.function as Record<string, unknown>, input: (item.function as Record<string, unknown>).parameters };
    case 'openai-responses':
      return { def: item, input: item.parameters };
    case 'mcp':
      return { def: item, input: item.inputSchema };
    case 'anthropic':
      return { def: item, input: item.input_schema };
    default: {
      const never: never = format;
      throw new Error(`unhandled tool format ${String(never)}`);
    }
  }
}

function buildTool(ctx: ToolContext, format: ToolFormat, item: Record<string, unknown>, pointer: string): ToolOperation {
  const { def, input } = toolFields(format, item);
  const toolName = def.name as string;
  const op: ToolOperation = {
    kind: 'tool',
    key: `tool:${toolName}`,
    name: '',
    toolName,
    format,
    inputSchema: schemaOr(input, EMPTY_OBJECT_SCHEMA),
    deprecated: false,
    extensions: { ...extensionsOf(item), ...(def !== item ? extensionsOf(def) : {}) },
    source: { file: ctx.doc.file, pointer },
  };
  const description = stringOrUndefined(def.description);
  if (description !== undefined) op.description = description;
  if (format === 'mcp') {
    if (isObject(item.outputSchema)) op.outputSchema = item.outputSchema;
    if (isObject(item.annotations)) op.annotations = item.annotations as ToolAnnotations;
    const title = stringOrUndefined(item.title) ?? stringOrUndefined(op.annotations?.title);
    if (title !== undefined) op.title = title;
  }
  if (typeof def.strict === 'boolean') op.strict = def.strict;
  return op;
}

export function buildToolOperations(ctx: ToolContext): { operations: ToolOperation[]; format: ToolFormat } {
  const detection = detectToolList(ctx.doc.root);
  if (detection?.kind !== 'tools') {
    ctx.report('unrecognized_input', 'error', 'not a tool list', '');
    return { operations: [], format: 'mcp' };
  }
  const operations: ToolOperation[] = [];
  const seen = new Map<string, number>();
  detection.items.forEach((item, i) => {
    const pointer = appendPointer(detection.pointer, i);
    const format = toolFormatOf(item);
    if (!format || !isObject(item)) {
      ctx.report('invalid_tool', 'warning', 'not a tool definition (no name/schema in a known format); ignored', pointer);
      return;
    }
    if (format !== detection.format) ctx.report('mixed_tool_formats', 'warning', `${format} tool in a ${detection.format} list`, pointer);
    const op = buildTool(ctx, format, item, pointer);
    const count = (seen.get(op.toolName) ?? 0) + 1;
    seen.set(op.toolName, count);
    if (count > 1) {
      const namePointer = format === 'openai-chat' ? appendPointer(pointer, 'function', 'name') : appendPointer(pointer, 'name');
      ctx.report('duplicate_tool_name', 'warning', `tool name ${op.toolName} is declared ${count} times`, namePointer);
      op.key = `tool:${op.toolName}#${count}`;
    }
    operations.push(op);
  });
  return { operations, format: detection.format };
}
