import type { SpecFormat, ToolFormat, ToolList } from './formats.js';

/** What a parsed file is, decided from its content alone (never from its name). */
export type Detection =
  | { kind: 'openapi'; format: SpecFormat; version: string }
  | ({ kind: 'tools'; format: ToolFormat } & ToolList)
  | { kind: 'unsupported'; version: string; pointer: string }
  | { kind: 'unknown' };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `swagger: 2.0` / `openapi: 3.0` unquoted in YAML are the numbers 2 and 3: read them as "2.0"/"3.0". */
function versionText(v: unknown): string {
  return typeof v === 'number' && Number.isInteger(v) ? v.toFixed(1) : String(v);
}

export function detectDocument(value: unknown): Detection {
  return detectSpec(value) ?? detectToolList(value) ?? { kind: 'unknown' };
}

function detectSpec(value: unknown): Detection | undefined {
  if (!isObject(value)) return undefined;
  if ('openapi' in value) {
    const version = versionText(value.openapi);
    if (/^3\.0(\.|$)/.test(version)) return { kind: 'openapi', format: 'openapi3.0', version };
    // 3.2 keeps the 3.1 structure (paths, webhooks, JSON Schema 2020-12); read it as 3.1.
    if (/^3\.[12](\.|$)/.test(version)) return { kind: 'openapi', format: 'openapi3.1', version };
    return { kind: 'unsupported', version, pointer: '/openapi' };
  }
  if ('swagger' in value) {
    const version = versionText(value.swagger);
    if (/^2\.0(\.|$)/.test(version)) return { kind: 'openapi', format: 'openapi2', version };
    return { kind: 'unsupported', version, pointer: '/swagger' };
  }
  if ('swaggerVersion' in value) {
    return { kind: 'unsupported', version: versionText(value.swaggerVersion), pointer: '/swaggerVersion' };
  }
  return undefined;
}

/** The tool format of one item, or undefined when it matches none. */
function toolFormatOf(item: unknown): ToolFormat | undefined {
  if (!isObject(item)) return undefined;
  if (item.type === 'function' && isObject(item.function) && typeof item.function.name === 'string') {
    return 'openai-chat';
  }
  if (typeof item.name !== 'string') return undefined;
  if (item.type === 'function') return 'openai-responses';
  if (isObject(item.inputSchema)) return 'mcp';
  if (isObject(item.input_schema)) return 'anthropic';
  return undefined;
}

/**
 * Tool lists: MCP `tools/list` results (`{tools}`, a JSON-RPC `{result:{tools}}`, or a bare array),
 * OpenAI chat `[{type:'function',function}]`, OpenAI Responses `[{type:'function',name,parameters}]`,
 * Anthropic `[{name,input_schema}]`, each also inside a `{tools:[...]}` wrapper.
 * The format is the one of the first recognisable item; each item keeps its own (the IR warns on a mix).
 */
function detectToolList(value: unknown): Detection | undefined {
  let items: unknown;
  let pointer = '';
  if (Array.isArray(value)) items = value;
  else if (isObject(value) && Array.isArray(value.tools)) [items, pointer] = [value.tools, '/tools'];
  else if (isObject(value) && isObject(value.result) && Array.isArray(value.result.tools)) {
    [items, pointer] = [value.result.tools, '/result/tools'];
  } else return undefined;
  const list = toolListAt(items as unknown[], pointer);
  const first = list.items.find((item) => item.format !== undefined)?.format;
  if (first) return { kind: 'tools', format: first, ...list };
  // `{ "tools": [] }` is an (empty) MCP tools/list result; a bare empty array is not evidence of anything.
  if (list.items.length === 0 && pointer !== '') return { kind: 'tools', format: 'mcp', ...list };
  return undefined;
}

/** The entries of a tool array at `pointer`, each with its format. */
export function toolListAt(items: readonly unknown[], pointer: string): ToolList {
  return { pointer, items: items.map((value) => ({ value, format: toolFormatOf(value) })) };
}
