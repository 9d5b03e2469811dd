/**
 * Find key-carrying properties in request schemas. Schemas stay as JSON with `$ref`s (specs are
 * circular — Stripe), so every walk follows refs through `followRef` and keeps a `seen` set.
 */
import { followRef, isObject } from '../ir/refs.js';

export interface FoundField {
  /** Dotted path from the body root (`idempotency_key`, `payment.idempotency_key`). */
  path: string;
  schema: Record<string, unknown>;
  required: boolean;
  /** Pointer of the property schema (after refs). */
  pointer: string;
}

/** How deep nested objects are searched: Square nests the key one level down in some requests. */
const MAX_DEPTH = 2;

function resolve(root: unknown, schema: unknown, pointer: string): { value: Record<string, unknown>; pointer: string } | undefined {
  const r = followRef(root, schema, pointer);
  return isObject(r.value) ? { value: r.value, pointer: r.pointer } : undefined;
}

/** Properties of a schema object, merged over `allOf` (and its refs); `seen` guards cycles. */
function collectProperties(
  root: unknown,
  schema: unknown,
  pointer: string,
  seen: Set<unknown>,
): { props: Map<string, { schema: unknown; pointer: string }>; required: Set<string> } {
  const props = new Map<string, { schema: unknown; pointer: string }>();
  const required = new Set<string>();
  const stack: { schema: unknown; pointer: string }[] = [{ schema, pointer }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    const r = resolve(root, next.schema, next.pointer);
    if (!r || seen.has(r.value)) continue;
    seen.add(r.value);
    const s = r.value;
    if (isObject(s.properties)) {
      for (const [name, ps] of Object.entries(s.properties)) {
        if (!props.has(name)) props.set(name, { schema: ps, pointer: `${r.pointer}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}` });
      }
    }
    if (Array.isArray(s.required)) for (const n of s.required) if (typeof n === 'string') required.add(n);
    if (Array.isArray(s.allOf)) s.allOf.forEach((sub, i) => stack.push({ schema: sub, pointer: `${r.pointer}/allOf/${i}` }));
  }
  return { props, required };
}

/**
 * Search a schema for properties whose name passes `isKey`, breadth first (shallowest wins),
 * skipping `readOnly` properties (a response-only field is not something the caller sends).
 */
export function findKeyFields(
  root: unknown,
  schema: unknown,
  pointer: string,
  isKey: (name: string, schema: unknown) => boolean,
): FoundField[] {
  const found: FoundField[] = [];
  const seen = new Set<unknown>();
  let level: { schema: unknown; pointer: string; prefix: string; required: boolean }[] = [{ schema, pointer, prefix: '', required: true }];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0 && found.length === 0; depth++) {
    const nextLevel: typeof level = [];
    for (const node of level) {
      const { props, required } = collectProperties(root, node.schema, node.pointer, seen);
      for (const [name, p] of [...props].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const r = resolve(root, p.schema, p.pointer);
        if (!r || r.value.readOnly === true) continue;
        const path = node.prefix === '' ? name : `${node.prefix}.${name}`;
        const isRequired = node.required && required.has(name);
        if (isKey(name, p.schema)) found.push({ path, schema: r.value, required: isRequired, pointer: r.pointer });
        else nextLevel.push({ schema: p.schema, pointer: p.pointer, prefix: path, required: isRequired });
      }
    }
    level = nextLevel;
  }
  return found;
}

/** `maxLength` of a string schema (through refs, `allOf`, and 3.1 `type: [string, null]` / anyOf). */
export function maxLengthOf(root: unknown, schema: unknown): number | undefined {
  const seen = new Set<unknown>();
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const r = resolve(root, stack.pop(), '');
    if (!r || seen.has(r.value)) continue;
    seen.add(r.value);
    if (typeof r.value.maxLength === 'number') return r.value.maxLength;
    for (const k of ['allOf', 'anyOf', 'oneOf']) {
      const subs = r.value[k];
      if (Array.isArray(subs)) stack.push(...subs);
    }
  }
  return undefined;
}
