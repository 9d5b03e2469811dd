/**
 * The JSON text of emitted tool schemas, with each `$defs` entry's text made once per run. A definition
 * object is shared by every tool that reaches it (defs.ts, strict-defs.ts): on Graph the input schemas'
 * definitions are 16 M characters of compact JSON but only 1.5 M distinct, so stringifying each one once
 * instead of once per tool and file removes most of the emit's serialization. A tool's property schemas
 * get the same treatment. Texts are byte-identical to `JSON.stringify`'s and not escaped
 * (escapeStringifiedJson runs on the whole item).
 */
import { compactObjectText } from './json.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Definition (or property schema) object → its compact text. Neither is edited once built. */
const texts = new WeakMap<object, string>();

/** One definition's compact JSON text (`JSON.stringify`'s), made once per run per definition object. */
export function compactDefinitionText(def: unknown): string {
  if (typeof def !== 'object' || def === null) return JSON.stringify(def) as string;
  let text = texts.get(def);
  if (text === undefined) {
    text = JSON.stringify(def);
    texts.set(def, text);
  }
  return text;
}

/**
 * A `properties` object's compact JSON text, each property's from the per-run texts: the tool model's
 * budget measures a tool's input (tools/budget-lazy.ts), the tools artifact writes it and the handlers
 * store each property, so one tool's property schemas were stringified three times.
 */
export function compactPropertiesText(properties: Obj): string {
  const entries: Record<string, string> = Object.create(null); // a property may be named `__proto__`
  for (const [name, schema] of Object.entries(properties))
    if (schema !== undefined) entries[name] = compactDefinitionText(schema);
  return compactObjectText(properties, entries);
}

/** A schema's compact JSON text (`JSON.stringify`'s), its `properties` and `$defs` entries from the per-run texts. */
export function compactSchemaText(schema: Obj): string {
  const given: Record<string, string> = {};
  if (isObj(schema.properties)) given.properties = compactPropertiesText(schema.properties);
  const defs = schema.$defs;
  if (isObj(defs) && Object.values(defs).some((d) => d !== undefined)) {
    const entries: Record<string, string> = Object.create(null); // a definition may be named `__proto__`
    for (const [name, def] of Object.entries(defs)) if (def !== undefined) entries[name] = compactDefinitionText(def);
    given.$defs = compactObjectText(defs, entries);
  }
  return compactObjectText(schema, given);
}
