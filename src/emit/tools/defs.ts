/**
 * Self-contained schemas: every `$ref` of a source schema (to `#/components/schemas/…`, `#/definitions/…`,
 * or anywhere else in its document) is lifted into the emitted schema's own `$defs`, on demand, so only
 * reachable definitions are copied. Each definition is normalized once, so circular specs (Stripe, GitHub)
 * terminate: a cycle is just a `$ref` to a name already registered.
 */
import type { JsonSchema } from '../../ir/types.js';
import { escapeSegment, parsePointer } from '../../json-pointer/pointer.js';
import { decodeFragment, followRef, isRef, resolvePointer } from '../../json-pointer/refs.js';

export interface DefsBuilder {
  /** An OpenAPI document (its schemas in the 3.1 form, ir/schemas.ts) or a tool's JSON Schema. */
  root: unknown;
  /** Source pointer → def name. */
  names: Map<string, string>;
  used: Set<string>;
  defs: Map<string, JsonSchema>;
  queue: string[];
  /** `$ref`s that could not be resolved (external or dangling), in encounter order. */
  unresolved: string[];
  /** While one definition is normalized: the refs `liftRef` was asked for and its answers, in order (`normalizeDef`). */
  trace?: { refs: string[]; answers: (string | undefined)[] };
  /** While one definition is normalized again: what `liftRef` answers, in order, without registering anything. */
  replay?: { answers: (string | undefined)[]; at: number };
  /** The document's ref texts, shared by every builder over the same root (`register`). */
  texts: RefTexts;
}

export function createDefs(root: unknown): DefsBuilder {
  return {
    root,
    names: new Map(),
    used: new Set(),
    defs: new Map(),
    queue: [],
    unresolved: [],
    texts: refTextsOf(root),
  };
}

/**
 * What `register` asks of a document per pointer (its target, whether it can be lifted, its base name),
 * answered once per document: every tool of an API lifts from the same document, which is not edited
 * while tools are built (Graph: ~2,400 tools reach one entity graph).
 */
interface PointerFacts {
  readonly target: unknown;
  readonly liftable: boolean;
  readonly base: string;
}
const factsByRoot = new WeakMap<object, Map<string, PointerFacts>>();

function factsOf(root: unknown, pointer: string): PointerFacts {
  const byPointer = typeof root === 'object' && root !== null ? factsByRoot.get(root) : undefined;
  let facts = byPointer?.get(pointer);
  if (facts === undefined) {
    facts = { target: resolvePointer(root, pointer), liftable: isLiftable(root, pointer), base: baseName(pointer) };
    if (typeof root === 'object' && root !== null) {
      if (byPointer === undefined) factsByRoot.set(root, new Map([[pointer, facts]]));
      else byPointer.set(pointer, facts);
    }
  }
  return facts;
}

/** A def name from the last meaningful pointer segment, restricted to `[A-Za-z0-9_.-]`. */
function baseName(pointer: string): string {
  const segments = parsePointer(pointer) ?? [];
  const tail = segments.length === 0 ? 'Root' : segments.slice(-1)[0];
  const named =
    /^(schemas|definitions|\$defs|items|additionalProperties)$/.test(tail) || /^\d+$/.test(tail)
      ? segments.slice(-2).join('_')
      : tail;
  const cleaned = named.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '');
  return cleaned === '' ? 'Def' : cleaned;
}

/**
 * Register a local `$ref` and return the rewritten reference (`#/$defs/<name>`), or `undefined` when the
 * target is external or does not exist (the caller substitutes an unconstrained schema and reports it).
 */
export function liftRef(builder: DefsBuilder, ref: string): string | undefined {
  if (builder.replay !== undefined) return builder.replay.answers[builder.replay.at++];
  const answer = register(builder, ref);
  if (builder.trace !== undefined) {
    builder.trace.refs.push(ref);
    builder.trace.answers.push(answer);
  }
  return answer;
}

/**
 * Ref text → its decoded pointer, and definition name → its `#/$defs/…` ref: the same few thousand strings
 * are asked for again by every tool (a definition reused from another tool asks for all its refs again,
 * `normalizeDef`), so each is made once and later answers are the same string (compared by identity). Kept
 * per document, so they go when the document does (a long `generate --watch` does not collect every run's).
 */
interface RefTexts {
  pointers: Map<string, string>;
  defRefs: Map<string, string>;
}
const refTextsByRoot = new WeakMap<object, RefTexts>();

function refTextsOf(root: unknown): RefTexts {
  if (typeof root !== 'object' || root === null) return { pointers: new Map(), defRefs: new Map() };
  let texts = refTextsByRoot.get(root);
  if (texts === undefined) {
    texts = { pointers: new Map(), defRefs: new Map() };
    refTextsByRoot.set(root, texts);
  }
  return texts;
}

function register(builder: DefsBuilder, ref: string): string | undefined {
  if (!ref.startsWith('#')) {
    builder.unresolved.push(ref);
    return undefined;
  }
  const { pointers, defRefs } = builder.texts;
  let pointer = pointers.get(ref);
  if (pointer === undefined) {
    pointer = decodeFragment(ref.slice(1));
    pointers.set(ref, pointer);
  }
  let name = builder.names.get(pointer);
  if (name === undefined) {
    const facts = factsOf(builder.root, pointer);
    if (!facts.liftable) {
      builder.unresolved.push(ref);
      return undefined;
    }
    const base = facts.base;
    name = base;
    for (let n = 2; builder.used.has(name); n += 1) name = `${base}_${n}`;
    builder.used.add(name);
    builder.names.set(pointer, name);
    builder.queue.push(pointer);
  }
  let text = defRefs.get(name);
  if (text === undefined) {
    text = `#/$defs/${escapeSegment(name)}`;
    defRefs.set(name, text);
  }
  return text;
}

/** A local ref's target can be lifted: it exists, is a schema (object or boolean) and is not a ref-only cycle. */
function isLiftable(root: unknown, pointer: string): boolean {
  const target = resolvePointer(root, pointer);
  // A ref-only cycle (`A: {$ref: B}`, `B: {$ref: A}`) has no schema to lift: Ajv rejects it, so it is unresolved.
  const cycles = isRef(target) && followRef(root, target, pointer).value === undefined;
  return !(
    cycles ||
    target === undefined ||
    (typeof target !== 'object' && typeof target !== 'boolean') ||
    target === null
  );
}

/** Whether `liftRef` would accept `ref` (without registering it). */
export function liftsRef(root: unknown, ref: string): boolean {
  return ref.startsWith('#') && isLiftable(root, decodeFragment(ref.slice(1)));
}

/**
 * Normalize every queued definition (which may queue more) and return them sorted by name.
 * `normalize` is injected to keep this module free of the walker (and the import graph acyclic).
 */
export function finishDefs(
  builder: DefsBuilder,
  normalize: (schema: unknown, builder: DefsBuilder) => JsonSchema,
): Record<string, JsonSchema> {
  while (finishNext(builder, normalize) !== undefined);
  return sortedDefs(builder);
}

/** Normalize the next queued definition (first in, first out: names are given in encounter order); its name, or undefined when none is left. */
export function finishNext(
  builder: DefsBuilder,
  normalize: (schema: unknown, builder: DefsBuilder) => JsonSchema,
): string | undefined {
  const pointer = builder.queue.shift();
  if (pointer === undefined) return undefined;
  const name = builder.names.get(pointer) as string;
  builder.defs.set(name, normalizeDef(factsOf(builder.root, pointer).target, builder, normalize));
  return name;
}

interface Normalized {
  root: unknown;
  /** The refs normalizing the source asked `liftRef` for, in order, and what it answered. */
  refs: string[];
  answers: (string | undefined)[];
  schema: JsonSchema;
}

/** Source definition → its normalized form, shared by every tool that reaches it (Graph: 2,378 tools, one entity graph). */
const normalizedDefs = new WeakMap<object, Normalized>();

/**
 * `normalize(source, builder)`, once per source definition. Normalizing touches the builder only through
 * `liftRef`, and asks it for the same refs in the same order every time, so asking those refs again (with
 * the same effects: names, queue, unresolved) and getting the same answers means the same result, which is
 * reused as is: emitted definitions are never edited (drop-key-path.ts copies). Different answers (a name
 * taken by another definition in this tool) normalize again with those answers.
 */
function normalizeDef(
  source: unknown,
  builder: DefsBuilder,
  normalize: (schema: unknown, builder: DefsBuilder) => JsonSchema,
): JsonSchema {
  if (typeof source !== 'object' || source === null) return normalize(source, builder);
  const known = normalizedDefs.get(source);
  if (known !== undefined && known.root === builder.root) {
    const answers = known.refs.map((ref) => liftRef(builder, ref));
    if (answers.every((a, i) => a === known.answers[i])) return known.schema;
    builder.replay = { answers, at: 0 };
    try {
      return normalize(source, builder);
    } finally {
      builder.replay = undefined;
    }
  }
  const trace: NonNullable<DefsBuilder['trace']> = { refs: [], answers: [] };
  builder.trace = trace;
  let schema: JsonSchema;
  try {
    schema = normalize(source, builder);
  } finally {
    builder.trace = undefined;
  }
  normalizedDefs.set(source, { root: builder.root, ...trace, schema });
  return schema;
}

/** The definitions normalized so far, sorted by name. */
export function sortedDefs(builder: DefsBuilder): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const name of [...builder.defs.keys()].sort()) out[name] = builder.defs.get(name) as JsonSchema;
  return out;
}
