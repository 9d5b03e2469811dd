/**
 * A compact `tools/list` for servers that list a whole API (Stripe: 452 tools). Three rewrites, none of
 * which changes which arguments a schema accepts:
 * - the key argument's long retry rule is said once, in the server's `instructions` (MCP initialize
 *   result); each key property keeps the short description (tools/key-description.ts) with its own dedup
 *   owner and window;
 * - `title` inside an input schema is an annotation (Stripe's are internal parameter names) and is dropped;
 * - a sub-schema repeated inside one input schema moves to that schema's `$defs` and is referenced, when
 *   that makes the text shorter (MCP has no way to share definitions across tools, so sharing stops at
 *   one tool).
 */
import type { ToolBinding } from '../tools/types.js';
import type { ListedTool } from './tool-meta.js';
import { keyDescription } from '../tools/key-description.js';

type Obj = Record<string, unknown>;

/** The key's contract, once per server (`instructions` in the initialize result). */
export const KEY_INSTRUCTIONS =
  "Every tool with side effects takes a required idempotency key argument (`idempotency_key`, or the API's own key argument where it has one). " +
  'Create one new key per intended action (for example a UUID made once, before the first call) and send the same key on every retry of that action. ' +
  'After a timeout, a dropped connection or any unknown outcome, retry with the SAME key: a call that already ran is answered from its record instead of running twice. ' +
  'Never use a new key for an action you are retrying. Each key property says who deduplicates it and for how long.';

const OUR_KEY = 'idempotency_key';

/** The key description every tools file carries (one source); the longer rule is in the instructions. */
function shortKeyDescription(binding: ToolBinding): string {
  const owner = binding.mechanism === 'native-key' && binding.carrier !== undefined ? 'api' : 'server';
  return keyDescription(owner, binding.ttlSeconds);
}

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

/** `f` on each direct sub-schema, without copying (mapSubschemas' walk). */
function forEachSubschema(schema: Obj, f: (sub: unknown) => void): void {
  for (const [k, v] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(k) && isObj(v)) for (const s of Object.values(v)) f(s);
    else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) for (const s of v) f(s);
    else if (SCHEMA_ONE.has(k) && isObj(v)) f(v);
  }
}

function withoutTitles(schema: unknown): unknown {
  if (!isObj(schema)) return schema;
  const out = mapSubschemas(schema, withoutTitles);
  // A property *named* title lives under `properties` and is kept: only the keyword goes.
  delete out.title;
  return out;
}

/** The smallest sub-schema text worth a definition: `{"$ref":"#/$defs/_N"}` costs about 20 characters. */
const MIN_SHARED = 40;

/**
 * The compact JSON text of every object sub-schema under `schema` (and of `schema`), built bottom-up so each
 * character is produced once (stringifying every sub-schema on its own costs depth × size: 0.5 s on Stripe).
 * Equal to `JSON.stringify(sub)`.
 */
function subschemaTexts(schema: Obj): Map<Obj, string> {
  const texts = new Map<Obj, string>();
  const text = (value: unknown): string => {
    if (!isObj(value)) return JSON.stringify(value);
    const known = texts.get(value);
    if (known !== undefined) return known;
    const members: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      let t: string;
      if (SCHEMA_MAPS.has(k) && isObj(v))
        t = `{${Object.entries(v)
          .filter(([, s]) => s !== undefined)
          .map(([n, s]) => `${JSON.stringify(n)}:${text(s)}`)
          .join(',')}}`;
      else if (SCHEMA_LISTS.has(k) && Array.isArray(v))
        t = `[${v.map((s) => (s === undefined ? 'null' : text(s))).join(',')}]`;
      else if (SCHEMA_ONE.has(k) && isObj(v)) t = text(v);
      else t = JSON.stringify(v);
      members.push(`${JSON.stringify(k)}:${t}`);
    }
    const out = `{${members.join(',')}}`;
    texts.set(value, out);
    return out;
  };
  text(schema);
  return texts;
}

/**
 * Sub-schemas that occur twice or more in `schema` (compared as compact JSON text) become `$defs` entries
 * named `_0`, `_1`, … (numbered in first-occurrence order, skipping names the schema already uses), and each
 * occurrence a `$ref`. Returns the original when the result is not shorter.
 */
export function shareRepeatedSubschemas(schema: Obj): Obj {
  const texts = subschemaTexts(schema);
  const counts = new Map<string, number>();
  const count = (sub: unknown): void => {
    if (!isObj(sub)) return;
    const text = texts.get(sub) as string;
    if (text.length >= MIN_SHARED) counts.set(text, (counts.get(text) ?? 0) + 1);
    forEachSubschema(sub, count);
  };
  forEachSubschema(schema, count);
  if (![...counts.values()].some((n) => n > 1)) return schema;
  const existing = isObj(schema.$defs) ? schema.$defs : {};
  const added: Obj = {};
  const names = new Map<string, string>();
  let next = 0;
  const rewrite = (sub: unknown): unknown => {
    if (!isObj(sub)) return sub;
    const text = texts.get(sub) as string;
    if ((counts.get(text) ?? 0) < 2) return mapSubschemas(sub, rewrite);
    let name = names.get(text);
    if (name === undefined) {
      do name = `_${next++}`;
      while (name in existing);
      names.set(text, name);
      added[name] = mapSubschemas(sub, rewrite);
    }
    return { $ref: `#/$defs/${name}` };
  };
  const out = mapSubschemas(schema, rewrite);
  out.$defs = { ...(isObj(out.$defs) ? out.$defs : {}), ...added };
  return JSON.stringify(out).length < (texts.get(schema) as string).length ? out : schema;
}

/** One listed tool in its compact form (the binding tells which property is the key). */
export function compactListedTool(tool: ListedTool, binding: ToolBinding): ListedTool {
  let inputSchema = withoutTitles(tool.inputSchema) as Obj;
  const key = binding.keyProperty;
  const props = inputSchema.properties;
  if (key === OUR_KEY && isObj(props) && isObj(props[key])) {
    const keyProp = { ...props[key], description: shortKeyDescription(binding) };
    inputSchema = { ...inputSchema, properties: { ...props, [key]: keyProp } };
  }
  return { ...tool, inputSchema: shareRepeatedSubschemas(inputSchema) };
}
