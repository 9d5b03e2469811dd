/**
 * Schema Objects in one form whatever the source version — the OpenAPI 3.1 (JSON Schema 2020-12) one — so
 * the classifier and the emitters read one dialect:
 * - `nullable: true` (3.0) and `x-nullable: true` (the common Swagger 2.0 extension): `null` joins the `type`
 *   (and the `enum`); around a `$ref` it becomes `anyOf: [{ $ref }, { type: 'null' }]`; a lone `oneOf`/`anyOf`
 *   gets a `{ type: 'null' }` alternative; any other shape is wrapped the same way (annotations stay outside).
 * - draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` (2.0, 3.0) → the numeric bound; `type: file` (2.0)
 *   → `type: string, format: binary`.
 * - 2.0 and 3.0 ignore the siblings of a `$ref`: assertions beside one are dropped, annotations (description…)
 *   kept, which is how 3.1 reads the same object.
 * Copy on write: a node is copied only when it or something below it changes. The loaded document stays as it
 * was read (validate checks it against its own version; `locate` indexes it), pointers keep their meaning, and
 * `$ref`s stay references — nothing is inlined, so Stripe- or GitHub-sized specs cost one walk, not a copy.
 */
import type { SpecFormat } from './types.js';
import { LITERAL_KEYS, OPENAPI_NAME_MAPS, SCHEMA_NAME_MAPS } from '../load/keywords.js';
import { setMember } from '../objects.js';

type Obj = Record<string, unknown>;
type Mode = 'node' | 'names' | 'schema-names';

/** What stays beside a `$ref` in 2.0/3.0, and outside the `anyOf` a nullable shape is wrapped in. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'deprecated',
  'readOnly',
  'writeOnly',
  'example',
  'examples',
  'default',
  'externalDocs',
  '$comment',
]);
/** Keywords that constrain a value; a nullable schema without any of them already accepts `null`. */
const SHAPE = [
  'type',
  'enum',
  'const',
  'properties',
  'additionalProperties',
  'patternProperties',
  'items',
  'prefixItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'required',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
];
const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf'] as const;

interface Walk {
  /** 2.0 and 3.0: the siblings of a `$ref` are ignored. */
  refSiblingsIgnored: boolean;
  /**
   * Rewritten nodes by original, so a node shared through a YAML alias stays one shared (rewritten) node;
   * `undefined` when the document is a tree (nothing to remember).
   */
  done: Map<object, unknown> | undefined;
  /** Nodes on the current path: YAML anchors can make real cycles; such a node is left as it is. */
  active: Set<object>;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The document with every Schema Object in the 3.1 form (the input itself when nothing needed a change).
 * `tree`: the caller knows no node is reachable twice (a JSON text with nothing bundled in: what JSON.parse
 * makes), so the walk keeps no alias or cycle bookkeeping; should a cycle show up after all (the stack runs
 * out), the walk is redone with it.
 */
export function normalizeSchemas(root: unknown, format: SpecFormat, opts: { tree?: boolean } = {}): unknown {
  const refSiblingsIgnored = format !== 'openapi3.1';
  if (opts.tree === true) {
    try {
      return visit({ refSiblingsIgnored, done: undefined, active: new Set() }, root, 'node');
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
    }
  }
  return visit({ refSiblingsIgnored, done: new Map(), active: new Set() }, root, 'node');
}

function visit(w: Walk, node: unknown, mode: Mode): unknown {
  if (node === null || typeof node !== 'object') return node;
  const done = w.done;
  if (done === undefined) return Array.isArray(node) ? visitArray(w, node) : visitObject(w, node as Obj, mode);
  const memo = done.get(node);
  if (memo !== undefined || w.active.has(node)) return memo ?? node;
  w.active.add(node);
  const out = Array.isArray(node) ? visitArray(w, node) : visitObject(w, node as Obj, mode);
  w.active.delete(node);
  // Only changed nodes are remembered: a map of every node of a GitHub-sized spec would cost more than
  // walking an unchanged alias twice.
  if (out !== node) done.set(node, out);
  return out;
}

function visitArray(w: Walk, node: unknown[]): unknown[] {
  let copy: unknown[] | undefined;
  for (let i = 0; i < node.length; i++) {
    const v = node[i];
    const n = visit(w, v, 'node');
    if (n !== v) {
      copy ??= [...node];
      copy[i] = n;
    }
  }
  return copy ?? node;
}

/** Keys that can make `rewrite` change a node (`type` only when it is `file`); a node without one is already 3.1. */
const REWRITE_KEYS: ReadonlySet<string> = new Set([
  '$ref',
  'type',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'nullable',
  'x-nullable',
]);

function visitObject(w: Walk, node: Obj, mode: Mode): Obj {
  let copy: Obj | undefined;
  // Most nodes need no rewrite: noticed while walking their keys, so `rewrite` runs only for the few that might.
  let rewritable = false;
  // Keys by `for…in`, not an array of them per node (the walk visits every node of the document).
  for (const key in node) {
    const v = node[key];
    // Scalars are never rewritten; only a scalar can make `rewrite` change its node (a string `$ref`,
    // `type: file`, a boolean bound or nullable flag), so only theirs are looked up in REWRITE_KEYS.
    if (v === null || typeof v !== 'object') {
      if (mode === 'node' && !rewritable && REWRITE_KEYS.has(key))
        rewritable = key === 'type' ? v === 'file' : key !== '$ref' || w.refSiblingsIgnored;
      continue;
    }
    if (mode === 'node' ? LITERAL_KEYS.has(key) || key.startsWith('x-') : mode === 'names' && key.startsWith('x-'))
      continue;
    const childMode: Mode =
      mode !== 'node' || Array.isArray(v)
        ? 'node'
        : SCHEMA_NAME_MAPS.has(key)
          ? 'schema-names'
          : OPENAPI_NAME_MAPS.has(key)
            ? 'names'
            : 'node';
    const n = visit(w, v, childMode);
    if (n !== v) {
      copy ??= { ...node };
      copy[key] = n;
    }
  }
  if (mode !== 'node') return copy ?? node;
  return rewritable ? rewrite(w, copy ?? node) : (copy ?? node);
}

const EXCLUSIVE_BOUNDS = [
  ['exclusiveMinimum', 'minimum'],
  ['exclusiveMaximum', 'maximum'],
] as const;

/**
 * One node in the 3.1 form; `s` itself when it already is. A changed node is a new object built member by member
 * in `s`'s order (dropped members left out, changed ones in place, `format` last when a `file` type adds it):
 * copying and then deleting would leave V8 a dictionary-mode object, slower for every later reader (Graph has
 * 8,000 nullable schemas, read by the classifier and every emitter).
 */
function rewrite(w: Walk, s: Obj): Obj {
  let dropped: Set<string> | undefined;
  let changed: Map<string, unknown> | undefined;
  const drop = (k: string): void => {
    dropped ??= new Set();
    dropped.add(k);
  };
  const change = (k: string, v: unknown): void => {
    changed ??= new Map();
    changed.set(k, v);
  };
  const read = (k: string): unknown =>
    dropped?.has(k) === true ? undefined : changed?.has(k) === true ? changed.get(k) : s[k];
  if (w.refSiblingsIgnored && typeof s.$ref === 'string') {
    for (const k of Object.keys(s))
      if (k !== '$ref' && k !== 'nullable' && k !== 'x-nullable' && !ANNOTATIONS.has(k) && !k.startsWith('x-')) drop(k);
  }
  for (const [flag, bound] of EXCLUSIVE_BOUNDS) {
    if (typeof read(flag) !== 'boolean') continue;
    if (read(flag) === true && typeof read(bound) === 'number') {
      change(flag, read(bound));
      drop(bound);
    } else drop(flag);
  }
  if (read('type') === 'file') {
    change('type', 'string');
    change('format', 'binary');
  }
  const nullable = read('nullable') === true || read('x-nullable') === true;
  if (typeof read('nullable') === 'boolean') drop('nullable');
  if (typeof read('x-nullable') === 'boolean') drop('x-nullable');
  if (dropped === undefined && changed === undefined) return nullable ? withNull({ ...s }) : s;
  const out: Obj = {};
  for (const k of Object.keys(s))
    if (dropped?.has(k) !== true) setMember(out, k, changed?.has(k) ? changed.get(k) : s[k]);
  if (changed !== undefined) for (const [k, v] of changed) if (!Object.hasOwn(s, k)) setMember(out, k, v);
  return nullable ? withNull(out) : out;
}

const isNullType = (v: unknown): boolean => isObj(v) && v.type === 'null';

/** `s` (a fresh copy, changed in place) or a wrapper around it that also accepts `null`. */
function withNull(s: Obj): Obj {
  const composed = COMPOSITIONS.filter((k) => Array.isArray(s[k]));
  if (typeof s.$ref === 'string') return wrap(s);
  if (composed.length === 0 && (typeof s.type === 'string' || Array.isArray(s.type) || Array.isArray(s.enum))) {
    const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
    if (types !== undefined && !types.includes('null')) s.type = [...types, 'null'];
    if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
    return s;
  }
  const onlyAlternatives =
    composed.length === 1 && composed[0] !== 'allOf' && SHAPE.every((k) => k === composed[0] || s[k] === undefined);
  if (onlyAlternatives) {
    const list = s[composed[0]] as unknown[];
    if (!list.some(isNullType)) s[composed[0]] = [...list, { type: 'null' }];
    return s;
  }
  return SHAPE.some((k) => s[k] !== undefined) ? wrap(s) : s;
}

function wrap(s: Obj): Obj {
  const outer: Obj = {};
  const inner: Obj = {};
  for (const [k, v] of Object.entries(s)) (ANNOTATIONS.has(k) ? outer : inner)[k] = v;
  outer.anyOf = [inner, { type: 'null' }];
  return outer;
}
