/** Tool lists (MCP, OpenAI chat/Responses, Anthropic) → ToolOperations. */
import type { IrContext } from './context.js';
import { extensionsOf, stringOrUndefined } from './context.js';
import { appendPointer } from '../json-pointer/pointer.js';
import { isObject } from '../json-pointer/refs.js';
import type { LoadedToolList } from '../load/types.js';
import type { JsonSchema, ToolAnnotations, ToolFormat, ToolOperation } from './types.js';

type ToolContext = Omit<IrContext, 'format' | 'root' | 'doc' | 'refTarget'> & { doc: LoadedToolList };

// OpenAI allows a function without `parameters`: it then takes no arguments.
const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {} };

function schemaOr(v: unknown, fallback: JsonSchema): JsonSchema {
  return isObject(v) || typeof v === 'boolean' ? (v as JsonSchema) : fallback;
}

/** The fields of one tool as its format spells them. */
function toolFields(
  format: ToolFormat,
  item: Record<string, unknown>,
): { def: Record<string, unknown>; input: unknown } {
  switch (format) {
    case 'openai-chat':
      return {
        def: item.function as Record<string, unknown>,
        input: (item.function as Record<string, unknown>).parameters,
      };
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

function buildTool(
  ctx: ToolContext,
  format: ToolFormat,
  item: Record<string, unknown>,
  pointer: string,
): ToolOperation {
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

/** The tools of a loaded list; the loader found the list and each entry's format. */
export function buildToolOperations(ctx: ToolContext): { operations: ToolOperation[]; format: ToolFormat } {
  const list = ctx.doc.tools;
  const operations: ToolOperation[] = [];
  const seen = new Map<string, number>();
  list.items.forEach(({ value: item, format }, i) => {
    const pointer = appendPointer(list.pointer, i);
    if (!format || !isObject(item)) {
      ctx.report(
        'invalid_tool',
        'warning',
        'not a tool definition (no name/schema in a known format); ignored',
        pointer,
      );
      return;
    }
    if (format !== ctx.doc.format)
      ctx.report('mixed_tool_formats', 'warning', `${format} tool in a ${ctx.doc.format} list`, pointer);
    const op = buildTool(ctx, format, item, pointer);
    const count = (seen.get(op.toolName) ?? 0) + 1;
    seen.set(op.toolName, count);
    if (count > 1) {
      const namePointer =
        format === 'openai-chat' ? appendPointer(pointer, 'function', 'name') : appendPointer(pointer, 'name');
      ctx.report('duplicate_tool_name', 'warning', `tool name ${op.toolName} is declared ${count} times`, namePointer);
      op.key = `tool:${op.toolName}#${count}`;
    }
    operations.push(op);
  });
  return { operations, format: ctx.doc.format };
}
