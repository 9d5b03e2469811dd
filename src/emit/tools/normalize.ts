/**
 * Normalize a source schema (an OpenAPI Schema Object, which the IR already gave the 3.1 form whatever the
 * spec version — ir/schemas.ts —, or a tool's draft-07 / 2020-12 JSON Schema) into plain JSON Schema
 * 2020-12 — the dialect MCP 2025-11-25 assumes when `$schema` is absent (SEP-1613).
 * Unknown keywords, vendor extensions and OpenAPI-only annotations are dropped, values of the wrong type
 * are dropped, and `$ref`s are lifted into `$defs` (see defs.ts), so the result compiles under Ajv 2020 strict.
 */
import type { JsonSchema } from '../../ir/types.js';
import { finishDefs, liftRef, type DefsBuilder } from './defs.js';
import {
  BOOLEAN_KEYWORDS,
  COUNT_KEYWORDS,
  JSON_TYPES,
  NUMBER_KEYWORDS,
  SCHEMA_ARRAY_KEYWORDS,
  SCHEMA_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  STRING_KEYWORDS,
  VALUE_KEYWORDS,
} from './keywords.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

type KeywordKind = 'schema' | 'schemas' | 'map' | 'count' | 'number' | 'string' | 'boolean' | 'value';

/** Each known keyword's table (keywords.ts; the tables share no keyword): one lookup per key, not eight list scans. */
const KIND = new Map<string, KeywordKind>(
  (
    [
      [SCHEMA_KEYWORDS, 'schema'],
      [SCHEMA_ARRAY_KEYWORDS, 'schemas'],
      [SCHEMA_MAP_KEYWORDS, 'map'],
      [COUNT_KEYWORDS, 'count'],
      [NUMBER_KEYWORDS, 'number'],
      [STRING_KEYWORDS, 'string'],
      [BOOLEAN_KEYWORDS, 'boolean'],
      [VALUE_KEYWORDS, 'value'],
    ] as const
  ).flatMap(([list, kind]) => list.map((k): [string, KeywordKind] => [k, kind])),
);
const TYPES: ReadonlySet<string> = new Set(JSON_TYPES);

/** Normalize one schema node. Non-schema input (a string, a number) becomes `{}` — no constraint. */
export function normalizeSchema(schema: unknown, builder: DefsBuilder): JsonSchema {
  if (typeof schema === 'boolean') return schema;
  if (!isObj(schema)) return {};
  const src = preprocess(schema);
  if (typeof src.$ref === 'string') {
    const target = liftRef(builder, src.$ref);
    const out: Obj = target === undefined ? {} : { $ref: target };
    return Object.assign(out, normalizeSchema(withoutRef(src), builder));
  }
  const out: Obj = {};
  for (const key of Object.keys(src).sort(byKeyword)) copyKeyword(out, key, src[key], builder);
  return out;
}

/** Sorted keywords, `type` first so a reader sees what a schema is before its constraints. */
function byKeyword(a: string, b: string): number {
  if (a === b) return 0;
  if (a === 'type') return -1;
  if (b === 'type') return 1;
  return a < b ? -1 : 1;
}

/** Normalize a top-level schema and attach the reachable `$defs`. */
export function normalizeRoot(schema: unknown, builder: DefsBuilder): JsonSchema {
  const out = normalizeSchema(schema, builder);
  const defs = finishDefs(builder, normalizeSchema);
  if (Object.keys(defs).length === 0 || typeof out === 'boolean') return out;
  return { ...out, $defs: defs };
}

function withoutRef(src: Obj): Obj {
  const { $ref: _ref, ...rest } = src;
  return rest;
}

/**
 * Rewrites that change keyword names: an OpenAPI `example` (kept by 3.1, deprecated there) → `examples`,
 * draft-07 tuple arrays and `dependencies`. OpenAPI 2.0/3.0 forms (`nullable`, boolean exclusive bounds,
 * `type: file`) never get here: the IR rewrote them.
 */
function preprocess(schema: Obj): Obj {
  // Most schemas need none of these rewrites: they are read as they are (callers only read the result).
  if (
    (schema.example === undefined || schema.examples !== undefined) &&
    !Array.isArray(schema.items) &&
    !isObj(schema.dependencies)
  )
    return schema;
  const src: Obj = { ...schema };
  if (src.example !== undefined && src.examples === undefined) src.examples = [src.example];
  if (Array.isArray(src.items)) {
    // draft-07 tuple form → 2020-12 prefixItems; additionalItems → items.
    src.prefixItems = src.items;
    src.items = src.additionalItems;
  }
  if (isObj(src.dependencies)) {
    for (const [name, dep] of Object.entries(src.dependencies)) {
      const target = Array.isArray(dep) ? 'dependentRequired' : 'dependentSchemas';
      src[target] = { ...(isObj(src[target]) ? (src[target] as Obj) : {}), [name]: dep };
    }
  }
  return src;
}

function copyKeyword(out: Obj, key: string, value: unknown, builder: DefsBuilder): void {
  switch (KIND.get(key)) {
    case 'schema':
      if (isObj(value) || typeof value === 'boolean') out[key] = normalizeSchema(value, builder);
      return;
    case 'schemas':
      if (Array.isArray(value) && (value.length > 0 || key === 'prefixItems')) {
        out[key] = value.map((v) => normalizeSchema(v, builder));
      }
      return;
    case 'map':
      if (isObj(value)) out[key] = mapSchemas(key === 'patternProperties' ? regexKeys(value) : value, builder);
      return;
    case 'count':
      if (Number.isInteger(value) && (value as number) >= 0) out[key] = value;
      return;
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value) && (key !== 'multipleOf' || value > 0)) out[key] = value;
      return;
    case 'string':
      if (typeof value === 'string' && (key !== 'pattern' || isRegex(value))) out[key] = value;
      return;
    case 'boolean':
      if (typeof value === 'boolean') out[key] = value;
      return;
    case 'value':
      out[key] = value;
      return;
    default:
      copyStructural(out, key, value);
  }
}

function copyStructural(out: Obj, key: string, value: unknown): void {
  switch (key) {
    case 'type': {
      const types = (Array.isArray(value) ? value : [value]).filter((t): t is string => TYPES.has(t as string));
      const unique = [...new Set(types)];
      if (unique.length === 1) out.type = unique[0];
      else if (unique.length > 1) out.type = unique;
      return;
    }
    case 'required': {
      if (!Array.isArray(value)) return;
      out.required = [...new Set(value.filter((v): v is string => typeof v === 'string'))];
      return;
    }
    case 'enum':
      if (Array.isArray(value)) out.enum = dedupeValues(value);
      return;
    case 'examples':
      if (Array.isArray(value)) out.examples = value;
      return;
    case 'dependentRequired':
      if (isObj(value)) out.dependentRequired = stringArrays(value);
      return;
    default:
      // `$schema`, `$id`, `definitions`/`$defs` (rebuilt from what is reachable), `discriminator`, `xml`,
      // `externalDocs`, `example`, `x-*` and unknown keywords.
      return;
  }
}

/**
 * JSON Schema patterns are ECMA-262 regexes, which validators compile in Unicode mode (Ajv does); a
 * pattern that does not compile there (`\\000` octal escapes in AWS specs) constrains nothing anyone
 * can check, so it is dropped rather than emitted broken.
 */
function isRegex(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function regexKeys(value: Obj): Obj {
  return Object.fromEntries(Object.entries(value).filter(([pattern]) => isRegex(pattern)));
}

function mapSchemas(value: Obj, builder: DefsBuilder): Obj {
  const out: Obj = {};
  for (const [name, sub] of Object.entries(value)) out[name] = normalizeSchema(sub, builder);
  return out;
}

function stringArrays(value: Obj): Obj {
  const out: Obj = {};
  for (const [name, list] of Object.entries(value)) {
    if (Array.isArray(list)) out[name] = [...new Set(list.filter((v): v is string => typeof v === 'string'))];
  }
  return out;
}

/**
 * 2020-12 does not require unique enum values, but Ajv's meta-schema check does. Two values are the same when
 * their JSON texts are; a string's text is itself in quotes (no other value's text starts with one), so strings
 * are compared as they are, without writing their JSON.
 */
function dedupeValues(values: unknown[]): unknown[] {
  const strings = new Set<string>();
  const others = new Set<string | undefined>();
  return values.filter((v) => {
    const seen: Set<string | undefined> = typeof v === 'string' ? strings : others;
    const key = typeof v === 'string' ? v : JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
