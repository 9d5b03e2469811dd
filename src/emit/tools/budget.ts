/**
 * A size budget for one tool's input schema (docs/decisions/0024-size-budget-per-tool-src-emit-tools-budget-ts.md).
 * Each tool is
 * self-contained, so an operation whose body reaches a whole entity graph (Microsoft Graph: ~130 tools
 * of ~470 KB each) inlines all of it — more than any model can use, and most of the output. Over the
 * budget, definitions are kept breadth-first by `$ref` distance from the tool's own properties, as deep
 * as fits; the first level that does not fit becomes open placeholders and everything below is dropped.
 * Deterministic (sizes are the compact JSON text), and every `$ref` still resolves.
 */
import { pruneDefs } from '@idemgen/runtime/internal/tools/strict/strict-limits.js';
import { defsRefName } from '@idemgen/runtime/internal/tools/strict/pointer.js';
import { ownDefRefs } from '@idemgen/runtime/internal/tools/schema-refs.js';
import { PLACEHOLDER_TAIL } from '@idemgen/runtime/internal/tools/strict/keywords.js';
import { DEFAULT_SCHEMA_BUDGET_CHARS } from '../../config/types.js';

type Obj = Record<string, unknown>;

/** Characters of compact JSON an input schema (with its `$defs`) may take before it is trimmed (config `tools.schemaBudget`). */
export const SCHEMA_BUDGET_CHARS = DEFAULT_SCHEMA_BUDGET_CHARS;

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

/** `JSON.stringify(value)` has text (objects of a schema hold none of the values it leaves out). */
const written = (v: unknown): boolean => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

/**
 * `JSON.stringify(schema).length` of a schema with `$defs`, without writing the definitions again: each
 * one's length is remembered (`compactLength`), the rest is measured. `{` `}`, a comma between members,
 * each member `"key":value`.
 */
export function schemaLength(schema: Obj): number {
  const objectLength = (obj: Obj, member: (key: string, value: unknown) => number): number => {
    let n = 2;
    let count = 0;
    for (const [key, value] of Object.entries(obj)) {
      if (!written(value)) continue;
      n += (JSON.stringify(key) as string).length + 1 + member(key, value);
      count += 1;
    }
    return n + Math.max(count - 1, 0);
  };
  return objectLength(schema, (key, value) =>
    key === '$defs' && isObj(value)
      ? objectLength(value, (_name, def) => compactLength(def))
      : (JSON.stringify(value) as string).length,
  );
}

/** The `$defs` names `node` refers to itself (the one walk of runtime/tools/schema-refs.ts), added to `out`. */
export function refsOf(node: unknown, out: Set<string>): Set<string> {
  for (const name of ownDefRefs(node)) out.add(name);
  return out;
}

const defRefs = new WeakMap<object, readonly string[]>();

/**
 * `refsOf` of one definition, found once per definition object (they are shared by the tools that reach
 * them and never edited once emitted, defs.ts): in the order `refsOf` adds them.
 */
export function defRefsOf(def: unknown): readonly string[] {
  if (typeof def !== 'object' || def === null) return [...refsOf(def, new Set())];
  let refs = defRefs.get(def);
  if (refs === undefined) {
    refs = [...refsOf(def, new Set())];
    defRefs.set(def, refs);
  }
  return refs;
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
      for (const ref of defRefsOf(defs[name])) if (ref in defs && !seen.has(ref)) next.add(ref);
    frontier = [...next].sort();
  }
  return out;
}

/** How many `$ref` hops a placeholder follows to learn a definition's kind, and the most enum values it keeps. */
const KIND_DEPTH = 3;
const KIND_ENUM_MAX = 64;
const KIND_BRANCHES_MAX = 32;

interface Kind {
  types?: string[];
  values?: unknown[];
}

/**
 * What a definition admits at its top level, as cheaply as it can be said: its JSON types and, when every
 * branch lists them, its values. Follows `$ref`s (through `lookup`), `anyOf`/`oneOf` (the union) and
 * `allOf` (any one part constrains the whole). `{}` when unknown: a placeholder must never be stricter
 * than the definition, only as little looser as it can be (an `anyOf` of an enum and null stays that).
 */
function kindOf(def: unknown, lookup: ((name: string) => unknown) | undefined, depth: number): Kind {
  if (!isObj(def)) return {};
  if (typeof def.$ref === 'string') {
    const name = defName(def.$ref);
    return lookup === undefined || name === '' || depth >= KIND_DEPTH ? {} : kindOf(lookup(name), lookup, depth + 1);
  }
  const types =
    typeof def.type === 'string' ? [def.type] : Array.isArray(def.type) ? (def.type as string[]) : undefined;
  if (types !== undefined || def.const !== undefined || Array.isArray(def.enum)) {
    const values = def.const !== undefined ? [def.const] : Array.isArray(def.enum) ? def.enum : undefined;
    return { types: types ?? (isObj(def.properties) ? ['object'] : undefined), values };
  }
  if (isObj(def.properties)) return { types: ['object'] };
  const union = Array.isArray(def.anyOf) ? def.anyOf : Array.isArray(def.oneOf) ? def.oneOf : undefined;
  if (union !== undefined && union.length > 0) {
    const kinds = union.map((b) => kindOf(b, lookup, depth));
    if (kinds.some((k) => k.types === undefined && k.values === undefined)) return {};
    const typed = kinds.every((k) => k.types !== undefined);
    const listed = kinds.every((k) => k.values !== undefined || (k.types?.length === 1 && k.types[0] === 'null'));
    return {
      types: typed ? [...new Set(kinds.flatMap((k) => k.types ?? []))].sort() : undefined,
      values: listed ? [...new Set(kinds.flatMap((k) => k.values ?? [null]))] : undefined,
    };
  }
  if (Array.isArray(def.allOf))
    for (const part of def.allOf) {
      const k = kindOf(part, lookup, depth);
      if (k.types !== undefined || k.values !== undefined) return k;
    }
  return {};
}

/**
 * An open placeholder that keeps the definition's kind, so `$ref`s to it still say what is expected: its
 * JSON type(s) and a short list of allowed values, read through `$ref`s and unions (`lookup` finds the
 * definitions a `$ref` names), so the tool never admits what the spec refuses at that level.
 */
export function placeholder(name: string, def: unknown, lookup?: (name: string) => unknown): Obj {
  const out: Obj = {};
  Object.assign(out, kindSchema(kindOf(def, lookup, 0)));
  if (out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'))) {
    const shape = shapeOf(def, lookup, 0);
    if (Object.keys(shape.properties).length > 0) out.properties = shape.properties;
    if (shape.required.length > 0) out.required = shape.required;
  }
  const branches = unionBranches(def, lookup);
  if (branches !== undefined) out.anyOf = branches;
  const own =
    isObj(def) && typeof def.description === 'string' && def.description.length <= 300 ? `${def.description} ` : '';
  out.description = `${own}(${name}${PLACEHOLDER_TAIL}`;
  return out;
}

interface Stub {
  /** The names `placeholder` looked up, in first-lookup order, and what each gave (by identity). */
  readonly names: string[];
  readonly found: unknown[];
  readonly schema: Obj;
  /** Its share of the compact JSON text of `$defs` (`"name":…,`), as `fitBudget` counts it. */
  readonly size: number;
}

/** Definition object → name → its last placeholder (definitions are shared by the tools that reach them, defs.ts). */
const stubs = new WeakMap<object, Map<string, Stub>>();

/**
 * `placeholder(name, def, lookup)` with its size, computed once per definition object: a placeholder reads
 * only `def`, `name` and what `lookup` gives, so when the same names looked up again give the same objects
 * (in the same order, so a lazy `lookup` does the same work) the remembered one is the same result. The
 * placeholder is shared like the definitions: nothing edits emitted schemas (drop-key-path.ts copies).
 */
export function placeholderStub(name: string, def: unknown, lookup: (name: string) => unknown): Stub {
  const byName = isObj(def) ? (stubs.get(def) ?? new Map<string, Stub>()) : undefined;
  const known = byName?.get(name);
  if (known?.names.every((n, i) => lookup(n) === known.found[i])) return known;
  const names: string[] = [];
  const found: unknown[] = [];
  const looked = new Set<string>();
  const recording = (n: string): unknown => {
    const value = lookup(n);
    if (!looked.has(n)) {
      looked.add(n);
      names.push(n);
      found.push(value);
    }
    return value;
  };
  const schema = placeholder(name, def, recording);
  const stub: Stub = { names, found, schema, size: name.length + 4 + JSON.stringify(schema).length };
  if (byName !== undefined) {
    if (byName.size === 0) stubs.set(def as object, byName);
    byName.set(name, stub);
  }
  return stub;
}

function kindSchema(kind: Kind): Obj {
  const out: Obj = {};
  if (kind.types !== undefined) out.type = kind.types.length === 1 ? kind.types[0] : kind.types;
  if (
    kind.values !== undefined &&
    kind.values.length <= KIND_ENUM_MAX &&
    kind.values.every((v) => v === null || typeof v !== 'object')
  )
    out.enum = kind.values;
  return out;
}

/**
 * An object definition's required property names and, for those and for every property with a short
 * list of values (a discriminator such as `role: user`), that property's kind: so a required field is
 * not left out and `oneOf` branches stay apart. Own `properties` and those of `allOf` parts.
 */
function shapeOf(
  def: unknown,
  lookup: ((name: string) => unknown) | undefined,
  depth: number,
): { properties: Obj; required: string[] } {
  const properties: Obj = {};
  const required = new Set<string>();
  const visit = (node: unknown, d: number): void => {
    if (!isObj(node) || d > KIND_DEPTH) return;
    if (typeof node.$ref === 'string') {
      const target = lookup === undefined ? undefined : lookup(defName(node.$ref));
      visit(target, d + 1);
      return;
    }
    if (Array.isArray(node.required)) for (const r of node.required) if (typeof r === 'string') required.add(r);
    if (isObj(node.properties))
      for (const [key, value] of Object.entries(node.properties)) {
        const kind = kindOf(value, lookup, 0);
        const listed = kind.values !== undefined && kind.values.length <= 8;
        if (listed || (Array.isArray(node.required) && node.required.includes(key))) {
          const schema = kindSchema(listed ? kind : { types: kind.types });
          if (Object.keys(schema).length > 0 || !(key in properties)) properties[key] = schema;
        }
      }
    if (Array.isArray(node.allOf)) for (const part of node.allOf) visit(part, d);
    const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (union !== undefined && union.length > 0 && d < KIND_DEPTH) {
      // what every branch requires, each such property's kinds merged (`type: web_search | file_search`)
      const shapes = union.map((b) => shapeOf(b, lookup, d + 1));
      for (const key of shapes[0].required) {
        if (!shapes.every((sh) => sh.required.includes(key))) continue;
        required.add(key);
        const kinds = shapes.map((sh) => sh.properties[key] as Obj | undefined);
        const merged = kinds.every((k) => k !== undefined) ? mergeKinds(kinds as Obj[]) : {};
        if (Object.keys(merged).length > 0 || !(key in properties)) properties[key] = merged;
      }
    }
  };
  visit(def, depth);
  const sorted: Obj = {};
  for (const key of Object.keys(properties).sort()) sorted[key] = properties[key];
  return { properties: sorted, required: [...required].sort() };
}

/**
 * For a union (OpenAI's `Tool`: one object per `type`; `ToolChoiceParam`: a string enum or an object),
 * each branch's kind, an object's with its shape, so a branch's own values and required fields hold;
 * undefined when a branch's kind is unknown.
 */
function unionBranches(def: unknown, lookup: ((name: string) => unknown) | undefined): Obj[] | undefined {
  let node = def;
  for (let d = 0; d < KIND_DEPTH && isObj(node) && typeof node.$ref === 'string'; d += 1)
    node = lookup?.(defName(node.$ref));
  if (!isObj(node)) return undefined;
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (union === undefined || union.length < 2 || union.length > KIND_BRANCHES_MAX) return undefined;
  const out: Obj[] = [];
  for (const branch of union) {
    const kind = kindOf(branch, lookup, 0);
    const one = kindSchema(kind);
    if (Object.keys(one).length === 0) return undefined;
    if (kind.types?.length === 1 && kind.types[0] === 'object') {
      const shape = shapeOf(branch, lookup, 0);
      if (Object.keys(shape.properties).length > 0) one.properties = shape.properties;
      if (shape.required.length > 0) one.required = shape.required;
    }
    out.push(one);
  }
  return out;
}

/** The union of branch kinds (`kindSchema`s): types when all have them, values when all list them. */
function mergeKinds(kinds: Obj[]): Obj {
  const types = kinds.map((k) => (k.type === undefined ? undefined : ([] as unknown[]).concat(k.type)));
  const values = kinds.map((k) => (Array.isArray(k.enum) ? k.enum : undefined));
  return kindSchema({
    types: types.every((t) => t !== undefined) ? [...new Set(types.flat() as string[])].sort() : undefined,
    values: values.every((v) => v !== undefined) ? [...new Set(values.flat())] : undefined,
  });
}

/**
 * A `oneOf` with a placeholder among its branches can no longer tell them apart (two object placeholders
 * both match any object, so every value fails "exactly one"): it becomes `anyOf`, which admits the same
 * values a model may send. Copy on write: definitions are shared by many tools (defs.ts).
 */
function unionsOverPlaceholders(node: unknown, stubbed: ReadonlySet<string>): unknown {
  if (Array.isArray(node)) {
    const mapped = node.map((n) => unionsOverPlaceholders(n, stubbed));
    return mapped.some((m, i) => m !== node[i]) ? mapped : node;
  }
  if (!isObj(node)) return node;
  let out: Obj | undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'const' || key === 'examples' || key === 'default') continue;
    const next = unionsOverPlaceholders(value, stubbed);
    if (next !== value) {
      out ??= { ...node };
      out[key] = next;
    }
  }
  const oneOf = (out ?? node).oneOf;
  if (
    Array.isArray(oneOf) &&
    (out ?? node).anyOf === undefined &&
    oneOf.some((b) => isObj(b) && typeof b.$ref === 'string' && stubbed.has(defName(b.$ref)))
  ) {
    const { oneOf: branches, ...rest } = out ?? node;
    return { ...rest, anyOf: branches };
  }
  return out ?? node;
}

/** Applies `unionsOverPlaceholders` to a trimmed schema in place: its own properties and every definition. */
export function loosenUnions(schema: Obj, stubbed: ReadonlySet<string>): void {
  for (const key of Object.keys(schema))
    if (key !== '$defs') schema[key] = unionsOverPlaceholders(schema[key], stubbed);
  if (isObj(schema.$defs)) {
    const defs = schema.$defs;
    for (const name of Object.keys(defs))
      if (!stubbed.has(name)) defs[name] = unionsOverPlaceholders(defs[name], stubbed);
  }
}

/**
 * Trim `schema` in place when over the budget. Returns the number of definitions replaced by
 * placeholders (0 when the schema fit).
 */
export function fitBudget(schema: Obj, budget = SCHEMA_BUDGET_CHARS): number {
  if (!isObj(schema.$defs) || schemaLength(schema) <= budget) return 0;
  const { $defs, ...rest } = schema;
  const defs = $defs as Obj;
  const byLevel = levels(rest, defs);
  const sizeOf = (name: string): number => name.length + 4 + compactLength(defs[name]);
  const lookup = (name: string): unknown => defs[name];
  const stubSize = (name: string): number => placeholderStub(name, defs[name], lookup).size;
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
  for (const name of stubbed) trimmed[name] = placeholderStub(name, defs[name], lookup).schema;
  schema.$defs = trimmed;
  pruneDefs(schema);
  loosenUnions(schema, new Set(stubbed));
  return stubbed.length;
}
