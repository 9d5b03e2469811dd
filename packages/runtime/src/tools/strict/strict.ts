/**
 * Rewrite a normalized 2020-12 input schema into OpenAI's strict subset (Structured Outputs,
 * "Supported schemas": platform.openai.com/docs/guides/structured-outputs#supported-schemas):
 * every object closed (`additionalProperties: false`) with every property required, optional ones
 * nullable; `oneOf` → `anyOf`; `allOf` of objects merged; unsupported keywords removed. What strict mode
 * cannot express (free-form objects, "any" values, tuples) becomes a JSON-encoded string — a deterministic,
 * still-valid degradation that the emitter reports as a warning.
 */
import { OPENAI_FORMATS, OPENAI_KEYWORDS, PLACEHOLDER_TAIL } from './keywords.js';
import { ownValue, setOwn } from './own.js';
import { appendPointer, defsRefName } from './pointer.js';

type Obj = Record<string, unknown>;

export interface StrictContext {
  /** Normalized (pre-strict) `$defs`, to merge `allOf` branches that are references. */
  defs: Obj;
  /** Pointers (inside the emitted parameters) of values degraded to JSON-encoded strings. */
  encoded: string[];
  /** Keywords removed because strict mode does not support them. */
  removed: Set<string>;
  /** When set, every `defs` entry read (name and value), in order (strict-defs.ts). */
  reads?: [string, unknown][];
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const ENCODED_NOTE = 'JSON-encoded value: pass the JSON text of the value as a string.';

export function encoded(node: unknown, path: string, ctx: StrictContext): Obj {
  ctx.encoded.push(path);
  const text = isObj(node) && typeof node.description === 'string' ? `${node.description} ` : '';
  return { type: 'string', description: text + ENCODED_NOTE };
}

/** Make a schema accept `null` too: strict mode's spelling of "optional" (all properties are required). */
export function nullable(node: Obj): Obj {
  if (typeof node.$ref === 'string' || node.const !== undefined) return { anyOf: [node, { type: 'null' }] };
  if (Array.isArray(node.anyOf)) {
    const hasNull = node.anyOf.some((b) => isObj(b) && b.type === 'null');
    return hasNull ? node : { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  }
  const out = { ...node };
  if (typeof out.type === 'string' && out.type !== 'null') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

function typesOf(node: Obj): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type as string[];
  if (isObj(node.properties)) return ['object'];
  if (isObj(node.items)) return ['array'];
  return [];
}

function deref(node: unknown, ctx: StrictContext): unknown {
  if (isObj(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/')) {
    const name = defsRefName(node.$ref)!;
    const value = ownValue(ctx.defs, name);
    ctx.reads?.push([name, value]);
    return value;
  }
  return node;
}

/** `allOf` of object schemas (inline or referenced) → one object; `undefined` when not mergeable. */
function mergeAllOf(node: Obj, ctx: StrictContext): Obj | undefined {
  const { allOf, ...rest } = node;
  const parts = [rest, ...(allOf as unknown[]).map((b) => deref(b, ctx))];
  const properties: Obj = {};
  const required: string[] = [];
  for (const part of parts) {
    if (!isObj(part) || part.allOf !== undefined || part.anyOf !== undefined || part.oneOf !== undefined)
      return undefined;
    const types = typesOf(part);
    if (types.length > 0 && !types.includes('object')) return undefined;
    if (isObj(part.properties)) for (const k of Object.keys(part.properties)) setOwn(properties, k, part.properties[k]);
    if (Array.isArray(part.required)) required.push(...(part.required as string[]));
  }
  const out: Obj = { type: 'object', properties, required: [...new Set(required)], additionalProperties: false };
  if (typeof node.description === 'string') out.description = node.description;
  return out;
}

/** Strictify one schema node found at `path` (a pointer inside the emitted parameters). */
export function strictNode(node: unknown, path: string, ctx: StrictContext): Obj {
  if (!isObj(node)) return encoded(node, path, ctx);
  if (typeof node.$ref === 'string') return { $ref: node.$ref };
  // a size-budget placeholder (budget.ts) lists only some properties of an open object: closing it would
  // refuse the rest, so it is JSON text, as before it listed any
  if (
    typesOf(node).includes('object') &&
    typeof node.description === 'string' &&
    node.description.endsWith(PLACEHOLDER_TAIL)
  )
    return encoded(node, path, ctx);
  if (Array.isArray(node.allOf)) {
    const single = node.allOf.length === 1 && Object.keys(node).length === 1 ? deref(node.allOf[0], ctx) : undefined;
    const merged = isObj(single) && single.allOf === undefined ? single : mergeAllOf(node, ctx);
    return merged ? strictNode(merged, path, ctx) : encoded(node, path, ctx);
  }
  const branches = [...((node.anyOf as unknown[]) ?? []), ...((node.oneOf as unknown[]) ?? [])];
  if (branches.length > 0) {
    if (Array.isArray(node.anyOf) && Array.isArray(node.oneOf)) return encoded(node, path, ctx);
    const out: Obj = { anyOf: branches.map((b, i) => strictNode(b, `${path}/anyOf/${i}`, ctx)) };
    if (typeof node.description === 'string') out.description = node.description;
    return out;
  }
  const types = typesOf(node);
  if (types.includes('object')) return strictObject(node, types, path, ctx);
  if (types.includes('array')) return strictArray(node, path, ctx);
  if (types.length === 0 && node.enum === undefined && node.const === undefined) return encoded(node, path, ctx);
  return copyAllowed(node, ctx);
}

function strictObject(node: Obj, types: string[], path: string, ctx: StrictContext): Obj {
  const props = isObj(node.properties) ? node.properties : {};
  const names = Object.keys(props);
  if (names.length === 0 && node.additionalProperties !== false) return encoded(node, path, ctx);
  if (node.additionalProperties !== undefined && node.additionalProperties !== false)
    ctx.removed.add('additionalProperties');
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const properties: Obj = {};
  for (const name of names) {
    const child = strictNode(props[name], appendPointer(path, 'properties', name), ctx);
    setOwn(properties, name, required.has(name) ? child : nullable(child));
  }
  const out = copyAllowed(node, ctx);
  const kept = types.filter((t) => t === 'object' || t === 'null');
  out.type = kept.length === 1 ? 'object' : kept;
  out.properties = properties;
  out.required = names;
  out.additionalProperties = false;
  return out;
}

function strictArray(node: Obj, path: string, ctx: StrictContext): Obj {
  if (node.prefixItems !== undefined) return encoded(node, path, ctx);
  const out = copyAllowed(node, ctx);
  if (out.type === undefined) out.type = 'array';
  out.items = strictNode(node.items ?? {}, `${path}/items`, ctx);
  return out;
}

/** Keep the keywords strict mode documents; record the rest as removed. */
function copyAllowed(node: Obj, ctx: StrictContext): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === 'items' || key === 'additionalProperties' || key === 'required') continue;
    const allowed =
      (OPENAI_KEYWORDS as readonly string[]).includes(key) &&
      (key !== 'format' || (OPENAI_FORMATS as readonly string[]).includes(value as string));
    if (allowed) setOwn(out, key, value);
    else ctx.removed.add(key === 'format' ? `format: ${String(value)}` : key);
  }
  return out;
}
