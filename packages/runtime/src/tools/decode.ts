/**
 * Tool arguments in the dialect a model sent them → the plain arguments the input schema describes.
 * OpenAI strict mode makes every property required, so an optional field arrives as `null`, and it sends
 * free-form values as JSON text (strict/strict.ts). Passing those on unchanged puts empty form fields and
 * `metadata=` on the wire; here `null` on an optional property becomes absent and encoded text is parsed,
 * following the input schema (and the pointers the strict converter reports, strict/of-binding.ts) recursively.
 */
import type { ToolBinding } from './types.js';
import { strictFormOf } from './strict/of-binding.js';
import { setOwn } from './strict/own.js';
import { defsRefName } from './strict/pointer.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const pointerPart = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** The property OpenAI tools use for "any further properties" of a free-form root (strict/to-openai.ts). */
const EXTRA_PROPERTY = 'additional_properties';

interface Walk {
  defs: Obj;
  encoded: Set<string>;
}

/** A `$ref` into `$defs` continues at `/$defs/<name>`, the way the strict schema spells its pointers. */
function resolve(schema: unknown, ptr: string, w: Walk): { schema: Obj; ptr: string } {
  for (
    let hops = 0;
    isObj(schema) && typeof schema.$ref === 'string' && schema.$ref.startsWith('#/$defs/') && hops < 32;
    hops++
  ) {
    const name = defsRefName(schema.$ref) as string;
    ptr = `/$defs/${pointerPart(name)}`;
    schema = Object.hasOwn(w.defs, name) ? w.defs[name] : undefined;
  }
  return { schema: isObj(schema) ? schema : {}, ptr };
}

function typesOf(s: Obj): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type as string[];
  return [];
}

/** Properties and required names of an object schema, `allOf` branches merged (as strict mode merges them). */
function objectShape(s: Obj, w: Walk, seen = 0): { props: Obj; required: Set<string> } {
  const props: Obj = { ...(isObj(s.properties) ? s.properties : {}) };
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  if (Array.isArray(s.allOf) && seen < 8) {
    for (const branch of s.allOf) {
      const sub = objectShape(resolve(branch, '', w).schema, w, seen + 1);
      for (const k of Object.keys(sub.props)) setOwn(props, k, sub.props[k]);
      for (const r of sub.required) required.add(r);
    }
  }
  return { props, required };
}

/** A string where the schema admits none, or where the emitter encoded the value: the JSON text of the value. */
function parseEncoded(value: string, s: Obj, ptr: string, w: Walk): unknown {
  const types = typesOf(s);
  const admitsString =
    types.includes('string') || (types.length === 0 && !w.encoded.has(ptr) && s.properties === undefined);
  if (admitsString && !w.encoded.has(ptr)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value; // left as sent: validation reports it at its pointer
  }
}

function decode(value: unknown, schema: unknown, ptr: string, w: Walk, depth: number): unknown {
  if (depth > 64) return value;
  const r = resolve(schema, ptr, w);
  const s = r.schema;
  let v = typeof value === 'string' ? parseEncoded(value, s, r.ptr, w) : value;
  const branches = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])];
  if (branches.length > 0 && typeof v === 'string') {
    // A branch the emitter encoded (Stripe: `metadata` is `anyOf: [object, ""]`): its JSON text, parsed.
    const i = branches.findIndex((_, n) => w.encoded.has(`${r.ptr}/anyOf/${n}`));
    if (i >= 0) {
      const parsed = parseEncoded(v, { type: 'object' }, `${r.ptr}/anyOf/${i}`, w);
      if (parsed !== v) return decode(parsed, branches[i], `${r.ptr}/anyOf/${i}`, w, depth + 1);
    }
  }
  if (branches.length > 0 && v !== null) {
    // The first branch that takes the value's kind decides how its inside is decoded.
    const kind = Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;
    const i = branches.findIndex((b) => {
      const t = typesOf(resolve(b, '', w).schema);
      return t.length === 0 || t.includes(kind) || (kind === 'number' && t.includes('integer'));
    });
    if (i >= 0) return decode(v, branches[i], `${r.ptr}/anyOf/${i}`, w, depth + 1);
  }
  if (Array.isArray(v)) {
    const items = s.items;
    return v.map((item) => decode(item, items, `${r.ptr}/items`, w, depth + 1));
  }
  if (isObj(v)) {
    const { props, required } = objectShape(s, w);
    const out: Obj = {};
    for (const [k, child] of Object.entries(v)) {
      if (child === null && !required.has(k)) continue; // strict mode's spelling of "absent"
      // A data property even for `__proto__` (an assignment would set the prototype and drop the argument).
      setOwn(
        out,
        k,
        Object.hasOwn(props, k)
          ? decode(child, props[k], `${r.ptr}/properties/${pointerPart(k)}`, w, depth + 1)
          : child,
      );
    }
    v = out;
  }
  return v;
}

/**
 * Decodes OpenAI strict-mode arguments; other dialects pass through unchanged. The free-form root's
 * `additional_properties` (JSON text) is merged into the arguments it stands for.
 */
export function decodeArguments(binding: ToolBinding, args: unknown, format: string | undefined): unknown {
  if (format !== 'openai' || !isObj(args)) return args;
  const schema = binding.inputSchema;
  const w: Walk = { defs: isObj(schema.$defs) ? schema.$defs : {}, encoded: new Set(strictFormOf(binding).encoded) };
  const extraPtr = `/properties/${EXTRA_PROPERTY}`;
  const ownExtra = isObj(schema.properties) && EXTRA_PROPERTY in schema.properties;
  const { [EXTRA_PROPERTY]: extra, ...rest } = args;
  const base = w.encoded.has(extraPtr) && !ownExtra ? rest : args;
  const decoded = decode(base, schema, '', w, 0) as Obj;
  if (base === rest && typeof extra === 'string') {
    const parsed = parseEncoded(extra, { type: 'object' }, extraPtr, w);
    if (isObj(parsed)) return { ...parsed, ...decoded };
    decoded[EXTRA_PROPERTY] = extra; // not an object: validation names it
  }
  return decoded;
}
