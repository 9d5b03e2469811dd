/**
 * A compact `tools/list` for servers that list a whole API (Stripe: 452 tools). Three rewrites, none of
 * which changes which arguments a schema accepts:
 * - the key argument's long retry rule is said once, in the server's `instructions` (MCP initialize
 *   result); each key property keeps the short description (tools/key-argument.ts) with its own dedup
 *   owner and window;
 * - `title` inside an input schema is an annotation (Stripe's are internal parameter names) and is dropped;
 * - a sub-schema repeated inside one input schema moves to that schema's `$defs` and is referenced, when
 *   that makes the text shorter (MCP has no way to share definitions across tools, so sharing stops at
 *   one tool).
 */
import type { ToolBinding } from '../tools/types.js';
import type { ListedTool } from './tool-meta.js';
import { KEY_ARGUMENT, keyDescription, keyOwnerOf } from '../tools/key-argument.js';

type Obj = Record<string, unknown>;

const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_ONE = new Set([
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
]);

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A copy of `schema` with `f` applied to each direct sub-schema (keywords that hold schemas only). */
function mapSubschemas(schema: Obj, f: (sub: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(k) && isObj(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, f(s)]));
    else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) out[k] = v.map(f);
    else if (SCHEMA_ONE.has(k) && isObj(v)) out[k] = f(v);
    else out[k] = v;
  }
  return out;
}

/** The smallest sub-schema text worth a definition: `{"$ref":"#/$defs/_N"}` costs about 20 characters. */
const MIN_SHARED = 40;

/** What one walk over a schema learns of each object sub-schema (and of the schema itself). */
interface Shape {
  /** Equal for two sub-schemas exactly when their compact JSON texts (titles dropped when asked) are equal. */
  id: number;
  /** The length of that text. */
  length: number;
  /** A `title` keyword is dropped somewhere in this sub-schema. */
  titled: boolean;
}

/**
 * Each object sub-schema's `Shape`, in one bottom-up walk. Instead of building every sub-schema's text (each
 * character copied once per nesting level), a sub-schema's signature is its own JSON text with each
 * sub-schema inside written as `#<id>`: two signatures are equal exactly when the texts are (JSON strings
 * are quoted, so `#` outside them only marks an id), and each leaf is stringified once. The same walk counts
 * the occurrences of each sub-schema long enough to share. `stripTitles`: the texts are those of the schema
 * without its `title` keywords (compactListedTool).
 */
function shapesOf(schema: Obj, stripTitles: boolean): { shapes: Map<Obj, Shape>; counts: number[] } {
  const shapes = new Map<Obj, Shape>();
  // Occurrences per id of the sub-schemas long enough to share (the schema itself is not one).
  const counts: number[] = [];
  const ids = new Map<string, number>();
  let sig = '';
  let length = 0;
  let titled = false;
  // Appends a sub-schema (or a leaf) to the signature being built and adds its text length.
  const sub = (value: unknown): void => {
    if (!isObj(value)) {
      const t = value === undefined ? 'null' : (JSON.stringify(value) as string);
      sig += t;
      length += t.length;
      return;
    }
    const shape = walk(value);
    if (shape.length >= MIN_SHARED) counts[shape.id] = (counts[shape.id] ?? 0) + 1;
    sig += `#${shape.id}`;
    length += shape.length;
    if (shape.titled) titled = true;
  };
  const walk = (value: Obj): Shape => {
    const outerSig = sig;
    const outerLength = length;
    const outerTitled = titled;
    sig = '{';
    length = 0;
    titled = false;
    let first = true;
    for (const k of Object.keys(value)) {
      const v = value[k];
      if (v === undefined) continue;
      if (stripTitles && k === 'title') {
        titled = true;
        continue;
      }
      const key = `${first ? '' : ','}${JSON.stringify(k)}:`;
      first = false;
      sig += key;
      length += key.length;
      if (SCHEMA_MAPS.has(k) && isObj(v)) {
        sig += '{';
        let firstMember = true;
        for (const n of Object.keys(v)) {
          const s = v[n];
          if (s === undefined) continue;
          const name = `${firstMember ? '' : ','}${JSON.stringify(n)}:`;
          firstMember = false;
          sig += name;
          length += name.length;
          sub(s);
        }
        sig += '}';
        length += 2;
      } else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) {
        sig += '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) {
            sig += ',';
            length += 1;
          }
          sub(v[i]);
        }
        sig += ']';
        length += 2;
      } else if (SCHEMA_ONE.has(k) && isObj(v)) sub(v);
      else {
        const t = JSON.stringify(v) as string;
        sig += t;
        length += t.length;
      }
    }
    sig += '}';
    let id = ids.get(sig);
    if (id === undefined) {
      id = ids.size;
      ids.set(sig, id);
    }
    const shape: Shape = { id, length: length + 2, titled };
    shapes.set(value, shape);
    sig = outerSig;
    length = outerLength;
    titled = outerTitled;
    return shape;
  };
  walk(schema);
  return { shapes, counts };
}

/** `schema` without `title` keywords; sub-schemas that have none are kept as they are, not copied. */
function withoutTitles(schema: unknown, shapes: Map<Obj, Shape>): unknown {
  if (!isObj(schema) || !(shapes.get(schema) as Shape).titled) return schema;
  const out = mapSubschemas(schema, (s) => withoutTitles(s, shapes));
  // A property *named* title lives under `properties` and is kept: only the keyword goes.
  delete out.title;
  return out;
}

/**
 * Sub-schemas that occur twice or more in `schema` (compared as compact JSON text) become `$defs` entries
 * named `_0`, `_1`, … (numbered in first-occurrence order, skipping names the schema already uses), and each
 * occurrence a `$ref`. `stripTitles`: the `title` keywords are dropped as well. Returns the schema (without
 * titles) when sharing does not make the text shorter.
 */
function shareRepeated(schema: Obj, stripTitles: boolean): Obj {
  const { shapes, counts } = shapesOf(schema, stripTitles);
  if (!counts.some((n) => n > 1)) return withoutTitles(schema, shapes) as Obj;
  const existing = isObj(schema.$defs) ? schema.$defs : {};
  const added: Obj = {};
  const names = new Map<number, string>();
  let next = 0;
  const copy = (sub: Obj): Obj => {
    const out = mapSubschemas(sub, rewrite);
    if (stripTitles) delete out.title;
    return out;
  };
  const rewrite = (sub: unknown): unknown => {
    if (!isObj(sub)) return sub;
    const { id } = shapes.get(sub) as Shape;
    if ((counts[id] ?? 0) < 2) return copy(sub);
    let name = names.get(id);
    if (name === undefined) {
      do name = `_${next++}`;
      while (name in existing);
      names.set(id, name);
      added[name] = copy(sub);
    }
    return { $ref: `#/$defs/${name}` };
  };
  const out = copy(schema);
  out.$defs = { ...(isObj(out.$defs) ? out.$defs : {}), ...added };
  return JSON.stringify(out).length < (shapes.get(schema) as Shape).length
    ? out
    : (withoutTitles(schema, shapes) as Obj);
}

/**
 * Sub-schemas that occur twice or more in `schema` (compared as compact JSON text) become `$defs` entries
 * named `_0`, `_1`, … (numbered in first-occurrence order, skipping names the schema already uses), and each
 * occurrence a `$ref`. Returns the original when the result is not shorter.
 */
export function shareRepeatedSubschemas(schema: Obj): Obj {
  return shareRepeated(schema, false);
}

/** One listed tool in its compact form (the binding tells which property is the key). */
export function compactListedTool(tool: ListedTool, binding: ToolBinding): ListedTool {
  let inputSchema = tool.inputSchema;
  const key = binding.keyProperty;
  const props = inputSchema.properties;
  if (key === KEY_ARGUMENT && isObj(props) && isObj(props[key])) {
    const keyProp = { ...props[key], description: keyDescription(keyOwnerOf(binding), binding.ttlSeconds) };
    inputSchema = { ...inputSchema, properties: { ...props, [key]: keyProp } };
  }
  // Titles go in the same walk that finds repeated sub-schemas (their texts are compared without them).
  return { ...tool, inputSchema: shareRepeated(inputSchema, true) };
}
