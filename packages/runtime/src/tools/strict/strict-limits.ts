/**
 * OpenAI strict-mode size limits (Structured Outputs "Supported schemas": 5,000 object properties,
 * 10 levels of nesting, 1,000 enum values, 120,000 characters of names/enum/const strings, and a
 * 15,000-character cap for one string enum of more than 250 values). A schema over a limit is degraded
 * deterministically: its largest top-level properties become JSON-encoded strings until it fits.
 */
import { OPENAI_LIMITS } from './keywords.js';
import { ownValue, setOwn } from './own.js';
import { defsRefName } from './pointer.js';
import { reachableDefs } from '../schema-refs.js';
import { encoded, nullable, type StrictContext } from './strict.js';

type Obj = Record<string, unknown>;

interface SchemaSize {
  properties: number;
  enumValues: number;
  chars: number;
  depth: number;
  largeEnumChars: number;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const defName = (ref: string): string => defsRefName(ref) ?? '';

function children(node: Obj): unknown[] {
  const out: unknown[] = [];
  if (isObj(node.properties)) out.push(...Object.values(node.properties));
  if (node.items !== undefined) out.push(node.items);
  if (Array.isArray(node.anyOf)) out.push(...node.anyOf);
  return out;
}

function stringChars(values: unknown[]): number {
  return values.reduce<number>((n, v) => n + (typeof v === 'string' ? v.length : 0), 0);
}

/** Counts over a node and every definition it reaches, each definition once. */
function count(node: unknown, defs: Obj, seen: Set<string>, size: SchemaSize): void {
  if (!isObj(node)) return;
  if (typeof node.$ref === 'string') {
    const name = defName(node.$ref);
    if (seen.has(name)) return;
    seen.add(name);
    size.chars += name.length;
    count(ownValue(defs, name), defs, seen, size);
    return;
  }
  if (isObj(node.properties)) {
    const names = Object.keys(node.properties);
    size.properties += names.length;
    size.chars += names.join('').length;
  }
  if (Array.isArray(node.enum)) {
    size.enumValues += node.enum.length;
    const chars = stringChars(node.enum);
    size.chars += chars;
    if (node.enum.length > OPENAI_LIMITS.largeEnum) size.largeEnumChars = Math.max(size.largeEnumChars, chars);
  }
  if (typeof node.const === 'string') size.chars += node.const.length;
  for (const child of children(node)) count(child, defs, seen, size);
}

/** Object nesting levels; a recursive reference adds nothing (strict mode allows recursion). */
function depth(node: unknown, defs: Obj, stack: string[]): number {
  if (!isObj(node)) return 0;
  if (typeof node.$ref === 'string') {
    const name = defName(node.$ref);
    if (stack.includes(name)) return 0;
    return depth(ownValue(defs, name), defs, [...stack, name]);
  }
  const own = isObj(node.properties) ? 1 : 0;
  return own + Math.max(0, ...children(node).map((c) => depth(c, defs, stack)));
}

function measure(node: unknown, defs: Obj): SchemaSize {
  const size: SchemaSize = { properties: 0, enumValues: 0, chars: 0, depth: depth(node, defs, []), largeEnumChars: 0 };
  count(node, defs, new Set(), size);
  return size;
}

function exceeded(size: SchemaSize): string[] {
  const out: string[] = [];
  if (size.properties > OPENAI_LIMITS.properties)
    out.push(`${size.properties} object properties (limit ${OPENAI_LIMITS.properties})`);
  if (size.depth > OPENAI_LIMITS.depth) out.push(`${size.depth} levels of nesting (limit ${OPENAI_LIMITS.depth})`);
  if (size.enumValues > OPENAI_LIMITS.enumValues)
    out.push(`${size.enumValues} enum values (limit ${OPENAI_LIMITS.enumValues})`);
  if (size.chars > OPENAI_LIMITS.chars)
    out.push(`${size.chars} characters of names and values (limit ${OPENAI_LIMITS.chars})`);
  if (size.largeEnumChars > OPENAI_LIMITS.largeEnumChars)
    out.push(`a large enum of ${size.largeEnumChars} characters (limit ${OPENAI_LIMITS.largeEnumChars})`);
  return out;
}

function acceptsNull(node: unknown): boolean {
  if (!isObj(node)) return false;
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  return Array.isArray(node.anyOf) && node.anyOf.some(acceptsNull);
}

function cost(size: SchemaSize): number {
  return size.properties + size.enumValues + size.chars / 100 + (size.depth >= OPENAI_LIMITS.depth ? 1e9 : 0);
}

/** Drop definitions nothing references any more (after degrading). */
export function pruneDefs(root: Obj): void {
  const defs = (root.$defs ?? {}) as Obj;
  const keep = reachableDefs(root, (name) => ownValue(defs, name));
  const kept: Obj = {};
  for (const name of Object.keys(defs).sort()) if (keep.has(name)) setOwn(kept, name, defs[name]);
  if (Object.keys(kept).length > 0) root.$defs = kept;
  else delete root.$defs;
}

/**
 * Degrade `root` (already strict) until it fits. Returns the limits it exceeded before degrading
 * (empty when it fit). `keep` names properties that must not be encoded (the idempotency key).
 */
export function fitLimits(root: Obj, ctx: StrictContext, keep: string | undefined): string[] {
  const defs = (root.$defs ?? {}) as Obj;
  const before = exceeded(measure(root, defs));
  const props = root.properties as Obj;
  // The first check is `before` itself (measuring is pure and half of the tools pass's limit checks).
  for (let over = before; over.length > 0; over = exceeded(measure(root, defs))) {
    const candidates = Object.keys(props)
      .filter((name) => name !== keep)
      .map((name) => ({ name, cost: cost(measure(props[name], defs)) }))
      .filter((c) => c.cost > 0)
      .sort((a, b) => b.cost - a.cost || (a.name < b.name ? -1 : 1));
    if (candidates.length === 0) break;
    const name = candidates[0].name;
    const replaced = encoded(props[name], `/properties/${name}`, ctx);
    props[name] = acceptsNull(props[name]) ? nullable(replaced) : replaced;
  }
  pruneDefs(root);
  return before;
}
