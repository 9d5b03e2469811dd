/**
 * The JSON text of emitted tool schemas, with each `$defs` entry's text made once per run. A definition
 * object is shared by every tool that reaches it (defs.ts, strict-defs.ts): on Graph the input schemas'
 * definitions are 16 M characters of compact JSON but only 1.5 M distinct, so stringifying each one once
 * (per indent level) instead of once per tool and file removes most of the emit's serialization. Texts
 * are byte-identical to `JSON.stringify`'s and not escaped (escapeStringifiedJson runs on the whole item), except
 * `IN_STRING` ones.
 */
import { escapeStringifiedJson } from '../../escape/index.js';
import { compactObjectText, jsonAt, objectAt } from './json.js';
import { getOrAdd } from '../../objects.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The level for compact text (no indent). */
const COMPACT = -1;
/**
 * The level for compact text escaped (escapeStringifiedJson) and then written inside a double-quoted TypeScript string
 * literal (tsString without its quotes): the handlers' `JSON.parse("…")`. Both escapes work character by
 * character and JSON text never splits a surrogate pair at a member boundary, so pieces join exactly.
 */
export const IN_STRING = -2;

/** JSON text as the body of a TypeScript string literal (see `IN_STRING`). */
// JSON.stringify makes the TypeScript literal: after escapeStringifiedJson no invisible code point is left for
// tsString's own pass to find (the same bytes as `tsString(escapeStringifiedJson(json))`, one scan fewer).
const inString = (json: string): string => JSON.stringify(escapeStringifiedJson(json)).slice(1, -1);

function stringify(value: unknown, level: number): string {
  if (level >= 0) return jsonAt(value, level);
  const json = JSON.stringify(value) as string;
  return level === COMPACT ? json : inString(json);
}

/** Level → definition object → its text at that level. Definitions are never edited once emitted. */
const texts = new Map<number, WeakMap<object, string>>();

const newTexts = (): WeakMap<object, string> => new WeakMap();

function definitionText(def: unknown, level: number): string {
  if (typeof def !== 'object' || def === null) return stringify(def, level);
  // Called for every definition and property of every tool: a hit makes no function (getOrAdd's `make` would).
  const cache = getOrAdd(texts, level, newTexts);
  const known = cache.get(def);
  if (known !== undefined) return known;
  const text = stringify(def, level);
  cache.set(def, text);
  return text;
}

/** One definition's compact JSON text (`JSON.stringify`'s), made once per run per definition object. */
export const compactDefinitionText = (def: unknown): string => definitionText(def, COMPACT);

/** A schema's compact JSON text (`JSON.stringify`'s), its `$defs` entries from the per-run texts. */
export const compactSchemaText = (schema: Obj): string => schemaText(schema, COMPACT);

/**
 * A tool input's `properties` as compact text, each property's from the per-run texts: the tool files and the
 * handlers' bindings file (which stores each property's text, render.ts) write the same property objects of
 * the tool model, so each is stringified once for both.
 */
function propertiesText(props: Obj): string {
  const texts: Record<string, string> = Object.create(null); // a property may be named `__proto__`
  for (const [name, p] of Object.entries(props)) if (isObj(p)) texts[name] = definitionText(p, COMPACT);
  return compactObjectText(props, texts);
}

/** `jsonAt(schema, level)` (or the `COMPACT` / `IN_STRING` text), its `$defs` entries from the per-run texts. */
export function schemaText(schema: Obj, level: number): string {
  const defs = schema.$defs;
  const props = level === COMPACT && isObj(schema.properties) ? schema.properties : undefined;
  if (!isObj(defs) || !Object.values(defs).some((d) => d !== undefined))
    return props === undefined
      ? stringify(schema, level)
      : compactObjectText(schema, { properties: propertiesText(props) });
  const entries: Record<string, string> = Object.create(null); // a definition may be named `__proto__`
  const entryLevel = level < 0 ? level : level + 2;
  for (const [name, def] of Object.entries(defs))
    if (def !== undefined) entries[name] = definitionText(def, entryLevel);
  if (level >= 0) return objectAt(schema, level, { $defs: objectAt(defs, level + 1, entries) });
  const encode = level === IN_STRING ? inString : undefined;
  const texts: Record<string, string> = { $defs: compactObjectText(defs, entries, encode) };
  if (props !== undefined) texts.properties = propertiesText(props);
  return compactObjectText(schema, texts, encode);
}
