/**
 * A size budget for one tool's input schema (docs/decisions.md "Tool schemas"). Each tool is
 * self-contained, so an operation whose body reaches a whole entity graph (Microsoft Graph: ~130 tools
 * of ~470 KB each) inlines all of it — more than any model can use, and most of the output. Over the
 * budget, definitions are kept breadth-first by `$ref` distance from the tool's own properties, as deep
 * as fits; the first level that does not fit becomes open placeholders and everything below is dropped.
 * Deterministic (sizes are the compact JSON text), and every `$ref` still resolves.
 */
import { pruneDefs } from './strict-limits.js';
import { defsRefName } from '../../json-pointer/refs.js';

type Obj = Record<string, unknown>;

/** Characters of compact JSON an input schema (with its `$defs`) may take before it is trimmed. */
export const SCHEMA_BUDGET_CHARS = 32_768;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
export const defName = (ref: string): string => defsRefName(ref) ?? '';

const lengths = new WeakMap<object, number>();

/** Characters of a schema's compact JSON text; remembered per object, as definitions are shared by many tools (defs.ts). */
export function compactLength(schema: unknown): number {
  if (typeof schema !== 'object' || schema === null) return JSON.stringify(schema).length;
  let n = lengths.get(schema);
  if (n === undefined) {
    n = JSON.stringify(schema).length;
    lengths.set(schema, n);
  }
  return n;
}

/** Names of the `$defs` a node refers to directly (not through other definitions). */
export function refsOf(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) refsOf(n, out);
  else if (isObj(node)) {
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/')) out.add(defName(node.$ref));
    for (const [key, value] of Object.entries(node))
      if (key !== 'enum' && key !== 'const' && key !== 'examples' && key !== 'default') refsOf(value, out);
  }
  return out;
}

/** Definition levels: level 0 is what the schema's own properties refer to, level n+1 what level n adds. */
function levels(rest: Obj, defs: Obj): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  let frontier = [...refsOf(rest, new Set())].filter((n) => n in defs).sort();
  while (frontier.length > 0) {
    for (const n of frontier) seen.add(n);
    out.push(frontier);
    const next = new Set<string>();
    for (const name of frontier)
      for (const ref of refsOf(defs[name], new Set())) if (ref in defs && !seen.has(ref)) next.add(ref);
    frontier = [...next].sort();
  }
  return out;
}

/** An open placeholder that keeps the definition's kind, so `$ref`s to it still say what is expected. */
export function placeholder(name: string, def: unknown): Obj {
  const out: Obj = {};
  if (isObj(def)) {
    if (typeof def.type === 'string' || Array.isArray(def.type)) out.type = def.type;
    else if (isObj(def.properties)) out.type = 'object';
  }
  const own =
    isObj(def) && typeof def.description === 'string' && def.description.length <= 300 ? `${def.description} ` : '';
  out.description = `${own}(${name}: details omitted to keep this tool schema small; see the API documentation.)`;
  return out;
}

/**
 * Trim `schema` in place when over the budget. Returns the number of definitions replaced by
 * placeholders (0 when the schema fit).
 */
export function fitBudget(schema: Obj, budget = SCHEMA_BUDGET_CHARS): number {
  if (!isObj(schema.$defs) || JSON.stringify(schema).length <= budget) return 0;
  const { $defs, ...rest } = schema;
  const defs = $defs as Obj;
  const byLevel = levels(rest, defs);
  const sizeOf = (name: string): number => name.length + 4 + compactLength(defs[name]);
  const stubSize = (name: string): number => name.length + 4 + JSON.stringify(placeholder(name, defs[name])).length;
  let used = JSON.stringify(rest).length + 12;
  let keep = 0;
  // Keep level after level while the kept levels plus the next level as placeholders fit.
  while (keep < byLevel.length) {
    const full = byLevel[keep].reduce((n, name) => n + sizeOf(name), 0);
    const after = keep + 1 < byLevel.length ? byLevel[keep + 1].reduce((n, name) => n + stubSize(name), 0) : 0;
    if (used + full + after > budget) break;
    used += full;
    keep += 1;
  }
  if (keep === byLevel.length) return 0;
  const stubbed = byLevel[keep];
  const trimmed: Obj = { ...defs };
  for (const name of stubbed) trimmed[name] = placeholder(name, defs[name]);
  schema.$defs = trimmed;
  pruneDefs(schema);
  return stubbed.length;
}
