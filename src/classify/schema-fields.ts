/**
 * Find key-carrying properties in request schemas. Schemas stay as JSON with `$ref`s (specs are
 * circular — Stripe), so every walk follows refs through `followRef` and guards cycles with the set of
 * schemas on the current walk (not a global `seen`: `oneOf` variants legitimately share a `$ref`).
 */
import { isObject } from '../json-pointer/refs.js';
import { resolve } from './ref-targets.js';
import { type ClassifyMemo, memoSlot } from './memo.js';
import { appendPointer } from '../json-pointer/pointer.js';

interface FoundField {
  /**
   * Property names from the body root (`['idempotency_key']`, `['data', 'attributes', 'idempotencyKey']`); an
   * array's items are `name[]` (`['events[]', 'transaction_id']`).
   */
  path: string[];
  schema: Record<string, unknown>;
  /** The property schema as written (a `$ref`, an `allOf` wrapper): where a sibling description lives. */
  declared: unknown;
  required: boolean;
  /** Pointer of the property schema (after refs). */
  pointer: string;
  /** Pointer of the innermost `oneOf`/`anyOf` variant the field was found in, if any. */
  variant?: string;
}

export interface KeySearch {
  /** One field per keyed variant (one in all when the schema has no `oneOf`/`anyOf` on the way). */
  hits: FoundField[];
  /** Pointers of the `oneOf`/`anyOf` variants that carry no key; empty when every variant does. */
  missing: string[];
}

/**
 * How deep nested objects are searched: Square nests the key one level down in some requests, JSON:API
 * two (`data.attributes.idempotencyKey`). Deeper finds are not the operation's key but a sub-resource's.
 */
const MAX_DEPTH = 2;
/**
 * Properties never searched below: an error object reused in a request schema (Microsoft Graph jobs carry
 * `error.innerError.clientRequestId`, a correlation id) is data about a past failure, not an envelope.
 */
const NOT_ENVELOPE = /^(?:inner_?)?errors?$/i;
/** Schemas visited per body, so a huge `anyOf`-heavy spec (Stripe) cannot make one search explode. */
const BUDGET = 20_000;

type Ptr = { schema: unknown; pointer: string };

interface Shape {
  props: Map<string, Ptr>;
  required: Set<string>;
  /** `oneOf`/`anyOf` lists met on the node or its `allOf` members. */
  branches: Ptr[][];
  /** `searchable(…)` of this shape, made on first use (a shape is read by every search that reaches it). */
  searchable?: Searchable[];
}

/** A property the search tests: its name, declared schema, and the schema its `$ref`s lead to. */
type Searchable = [name: string, declared: Ptr, target: { value: Record<string, unknown>; pointer: string }];

/** Properties of a schema object merged over `allOf` (and its refs), plus its variant lists. */
/** Document → schema object → pointer → its shape. */
const SHAPES = memoSlot('schema shapes', () => new WeakMap<object, WeakMap<object, Map<string, Shape>>>());

/**
 * `shapeOf`, once per document, schema object and pointer: a shape depends on nothing else (documents are not
 * edited), and Graph's ~11,000 bodies reach the same entity schemas again and again. Callers only read shapes.
 */
function shapeAt(memo: ClassifyMemo, root: unknown, start: { value: Record<string, unknown>; pointer: string }): Shape {
  if (!isObject(root)) return shapeOf(memo, root, start);
  const shapes = memo.get(SHAPES);
  let inRoot = shapes.get(root);
  if (inRoot === undefined) {
    inRoot = new WeakMap();
    shapes.set(root, inRoot);
  }
  let byPointer = inRoot.get(start.value);
  if (byPointer === undefined) {
    byPointer = new Map();
    inRoot.set(start.value, byPointer);
  }
  let shape = byPointer.get(start.pointer);
  if (shape === undefined) {
    shape = shapeOf(memo, root, start);
    byPointer.set(start.pointer, shape);
  }
  return shape;
}

function shapeOf(memo: ClassifyMemo, root: unknown, start: { value: Record<string, unknown>; pointer: string }): Shape {
  const shape: Shape = { props: new Map(), required: new Set(), branches: [] };
  const seen = new Set<unknown>();
  const stack = [start];
  while (stack.length > 0) {
    const r = stack.pop()!;
    if (seen.has(r.value)) continue;
    seen.add(r.value);
    const s = r.value;
    if (isObject(s.properties)) {
      for (const [name, ps] of Object.entries(s.properties))
        if (!shape.props.has(name))
          shape.props.set(name, { schema: ps, pointer: appendPointer(r.pointer, 'properties', name) });
    }
    if (Array.isArray(s.required)) for (const n of s.required) if (typeof n === 'string') shape.required.add(n);
    for (const k of ['oneOf', 'anyOf'] as const) {
      const subs = s[k];
      if (Array.isArray(subs) && subs.length > 0)
        shape.branches.push(subs.map((sub, i) => ({ schema: sub, pointer: `${r.pointer}/${k}/${i}` })));
    }
    if (Array.isArray(s.allOf)) {
      for (let i = s.allOf.length - 1; i >= 0; i--) {
        const m = resolve(memo, root, s.allOf[i], `${r.pointer}/allOf/${i}`);
        if (m) stack.push(m);
      }
    }
  }
  return shape;
}

/** Whether a property is the key: its name, its schema as written and after refs, and where it is. */
type KeyTest = (name: string, schema: unknown, resolved: unknown, at: { path: string[]; pointer: string }) => boolean;

interface Walk {
  memo: ClassifyMemo;
  root: unknown;
  isKey: KeyTest;
  onPath: Set<unknown>;
  budget: number;
  /**
   * `isKey` per depth and property (its entry in a memoised shape): the deepening search (depth 0, 1, 2)
   * reaches the same properties again, and a verdict depends only on the property (`KeyTest` reads its
   * name, schemas and depth).
   */
  verdicts: Map<Ptr, boolean>[];
}

/**
 * The properties a search tests, in name order: an unresolved `$ref` is no property to search (its loader
 * diagnostic says why); a readOnly one is response-only.
 */
function searchable(w: Walk, shape: Shape): Searchable[] {
  if (shape.searchable !== undefined) return shape.searchable;
  const out: Searchable[] = [];
  for (const [name, p] of [...shape.props].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const t = resolve(w.memo, w.root, p.schema, p.pointer);
    if (t !== undefined && t.value.readOnly !== true) out.push([name, p, t]);
  }
  // Shapes are memoised per document, so the list is too (shapeAt); a shape made for a non-object root is not.
  shape.searchable = out;
  return out;
}

/** `{ type: 'null' }` or a shapeless `{ type: [object, 'null'] }` (3.0 `nullable`): the "or null" of a variant list, no body shape. */
function isNullOnly(s: Record<string, unknown> | undefined): boolean {
  if (!s) return false;
  if (s.type === 'null') return true;
  const shaped = ['properties', 'allOf', 'oneOf', 'anyOf', 'items', 'additionalProperties', '$ref'].some(
    (k) => s[k] !== undefined,
  );
  return Array.isArray(s.type) && s.type.includes('null') && !shaped;
}

/** Variants of one `oneOf`/`anyOf`: keyed ones contribute their hits, the others are `missing`. */
function probeBranch(w: Walk, list: Ptr[], prefix: string[], required: boolean, depth: number): KeySearch | undefined {
  const out: KeySearch = { hits: [], missing: [] };
  for (const v of list) {
    if (isNullOnly(resolve(w.memo, w.root, v.schema, v.pointer)?.value)) continue;
    const r = probe(w, v, prefix, required, depth);
    if (!r) {
      out.missing.push(resolve(w.memo, w.root, v.schema, v.pointer)?.pointer ?? v.pointer);
      continue;
    }
    out.hits.push(
      ...r.hits.map((h) => ({
        ...h,
        variant: h.variant ?? resolve(w.memo, w.root, v.schema, v.pointer)?.pointer ?? v.pointer,
      })),
    );
    out.missing.push(...r.missing);
  }
  return out.hits.length > 0 ? out : undefined;
}

/** The key in this schema: a direct property, else in its variants, else (depth left) in a nested object. */
function probe(w: Walk, node: Ptr, prefix: string[], required: boolean, depth: number): KeySearch | undefined {
  const r = resolve(w.memo, w.root, node.schema, node.pointer);
  if (!r || w.onPath.has(r.value) || --w.budget < 0) return undefined;
  w.onPath.add(r.value);
  try {
    const shape = shapeAt(w.memo, w.root, r);
    const props = searchable(w, shape);
    w.verdicts[prefix.length] ??= new Map();
    const verdicts = w.verdicts[prefix.length] as Map<Ptr, boolean>;
    for (const [name, p, target] of props) {
      let isKey = verdicts.get(p);
      if (isKey === undefined) {
        isKey = w.isKey(name, p.schema, target.value, { path: [...prefix, name], pointer: target.pointer });
        verdicts.set(p, isKey);
      }
      if (!isKey) continue;
      return {
        hits: [
          {
            path: [...prefix, name],
            schema: target.value,
            declared: p.schema,
            required: required && shape.required.has(name),
            pointer: target.pointer,
          },
        ],
        missing: [],
      };
    }
    for (const list of shape.branches) {
      const found = probeBranch(w, list, prefix, required, depth);
      if (found) return found;
    }
    if (depth === 0) return undefined;
    let partial: KeySearch | undefined;
    for (const [name, p, target] of props) {
      if (NOT_ENVELOPE.test(name)) continue;
      const found = probe(w, p, [...prefix, name], required && shape.required.has(name), depth - 1);
      if (found && found.missing.length === 0) return found;
      partial ??= found;
      // An array's items are searched too (`events[]`): the test sees them, a key there is one per item.
      if (target.value.items !== undefined && typeof target.value.items === 'object') {
        const items = { schema: target.value.items, pointer: `${target.pointer}/items` };
        const inItems = probe(w, items, [...prefix, `${name}[]`], false, depth - 1);
        if (inItems && inItems.missing.length === 0) return inItems;
        partial ??= inItems;
      }
    }
    return partial;
  } finally {
    w.onPath.delete(r.value);
  }
}

/**
 * Search a request schema for the key property: shallowest first, names in sorted order, `readOnly`
 * properties skipped (a response-only field is not something the caller sends). A key present in every
 * `oneOf`/`anyOf` variant comes back with `missing` empty; in only some, with the others listed.
 */
export function findKeyField(
  memo: ClassifyMemo,
  root: unknown,
  schema: unknown,
  pointer: string,
  isKey: KeyTest,
): KeySearch | undefined {
  const w: Walk = { memo, root, isKey, onPath: new Set(), budget: BUDGET, verdicts: [] };
  let best: KeySearch | undefined;
  for (let depth = 0; depth <= MAX_DEPTH && w.budget > 0; depth++) {
    const found = probe(w, { schema, pointer }, [], true, depth);
    if (found && found.missing.length === 0) return found;
    if (found && (!best || found.missing.length < best.missing.length)) best = found;
  }
  return best;
}

/** `maxLength` of a string schema (through refs, `allOf`, and 3.1 `type: [string, null]` / anyOf). */
export function maxLengthOf(memo: ClassifyMemo, root: unknown, schema: unknown): number | undefined {
  const seen = new Set<unknown>();
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const r = resolve(memo, root, stack.pop(), '');
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
