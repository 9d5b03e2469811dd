/**
 * The key as a request-body field (docs/concepts.md#mechanisms): searched in every request media type in declaration
 * order (`application/json`, `+json` vendor types, form-urlencoded, multipart — the IR made Swagger 2.0
 * `body`/`formData` parameters one of these),
 * through `$ref`s, `allOf`, every `oneOf`/`anyOf` variant and nested objects (schema-fields.ts).
 */
import type { HttpOperation } from '../ir/types.js';
import { addFinding, reason, type ClassifyContext } from './context.js';
import { descriptionOf, weighCandidate, type Evidence } from './key-evidence.js';
import { memoSlot } from './memo.js';
import { getOrAdd } from '../objects.js';
import { resolve } from './ref-targets.js';
import { findKeyField, maxLengthOf, type KeySearch } from './schema-fields.js';
import type { Carrier, CarrierVariant, Reason } from './types.js';

export interface BodyKey {
  carrier: Carrier;
  reasons: Reason[];
  search: KeySearch;
  /** Pointer of the media type's schema the key was found in. */
  pointer: string;
}

/** A candidate whose evidence is borderline (`possible_key_carrier`): where it is and what was said. */
export interface PossibleField {
  in: 'header' | 'query' | 'body' | 'form';
  path: string[];
  pointer: string;
  signals: string[];
}

interface BodySearch {
  search: KeySearch | undefined;
  possible: PossibleField[];
}

function isFormMedia(mediaType: string): boolean {
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(mediaType);
}

const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((s, i) => s === b[i]);

function carrierOf(ctx: ClassifyContext, search: KeySearch, form: boolean): Carrier {
  const [first] = search.hits;
  const c: Carrier = {
    in: form ? 'form' : 'body',
    name: first.path.join('.'),
    path: [...first.path],
    required: search.missing.length === 0 && search.hits.every((h) => h.required),
  };
  const differs = search.hits.some((h) => !same(h.path, first.path));
  if (differs || search.missing.length > 0) {
    const variants: CarrierVariant[] = [];
    for (const h of search.hits)
      if (h.variant !== undefined && !variants.some((v) => v.pointer === h.variant))
        variants.push({ pointer: h.variant, path: [...h.path] });
    c.variants = variants;
  }
  // Every variant's limit holds for the one key: the smallest wins.
  const limits = search.hits
    .map((h) => maxLengthOf(ctx.memo, ctx.api.root, h.schema))
    .filter((n): n is number => n !== undefined);
  if (limits.length > 0) c.maxLength = Math.min(...limits);
  return c;
}

/**
 * Searches of a body that is only a `$ref`, per (spec root, heuristics): everything a search returns is
 * reached through the ref, so its pointers name the target and not the operation, and the result is the same
 * for every operation that sends that schema (Microsoft Graph: thousands of PATCH/POST bodies share a few
 * hundred). Results are read, never mutated, by the callers.
 */
const BY_REF = memoSlot('body searches by $ref', () => new WeakMap<object, WeakMap<object, Map<string, BodySearch>>>());

/** The schema that says what type a property is: itself, or the `$ref` member of an AWS `allOf` wrapper. */
function typedSchema(ctx: ClassifyContext, resolved: unknown): unknown {
  if (resolved === null || typeof resolved !== 'object') return resolved;
  const s = resolved as Record<string, unknown>;
  if (s.type !== undefined || !Array.isArray(s.allOf)) return resolved;
  for (const m of s.allOf) {
    const t = resolve(ctx.memo, ctx.api.root, m, '')?.value;
    if (t?.type !== undefined) return { ...t, ...s, type: t.type };
  }
  return resolved;
}

function evidenceOf(
  ctx: ClassifyContext,
  form: boolean,
  path: string[],
  declared: unknown,
  resolved: unknown,
): Evidence {
  const schema = typedSchema(ctx, resolved);
  const description = descriptionOf(declared, resolved);
  const name = path[path.length - 1];
  const inItems = path.some((p) => p.endsWith('[]'));
  return weighCandidate(
    { in: form ? 'form' : 'body', name, description, schema, declared, depth: path.length - 1, inItems },
    ctx.h,
    ctx.memo,
  );
}

/**
 * Evidence per (spec root, heuristics, declared property schema, name, depth, body kind): what `evidenceOf`
 * reads is the declared schema (and its `$ref` target, fixed by the root), the name and the depth, so a
 * component schema reached from many bodies (Graph: entity types in thousands of requests) is weighed
 * once per place it is met. Evidence is only read by the callers.
 */
const EVIDENCE = memoSlot(
  'body key evidence',
  () => new WeakMap<object, WeakMap<object, WeakMap<object, Map<string, Evidence>>>>(),
);

/** The memo of one document and one heuristics object (both memos here are kept per document, then per heuristics). */
function perRootAndHeuristics<H extends object, V>(
  byRoot: WeakMap<object, WeakMap<H, V>>,
  root: object,
  h: H,
  make: () => V,
): V {
  return getOrAdd(
    getOrAdd(byRoot, root, () => new WeakMap<H, V>()),
    h,
    make,
  );
}

function propertyEvidence(
  ctx: ClassifyContext,
  form: boolean,
  path: string[],
  declared: unknown,
  resolved: unknown,
): Evidence {
  const root = ctx.api.root;
  if (declared === null || typeof declared !== 'object' || root === null || typeof root !== 'object')
    return evidenceOf(ctx, form, path, declared, resolved);
  const byDeclared = perRootAndHeuristics(ctx.memo.get(EVIDENCE), root, ctx.h, () => new WeakMap());
  const known = getOrAdd(byDeclared, declared, () => new Map<string, Evidence>());
  const id = `${form ? 'f' : 'b'}${path.length}${path.some((p) => p.endsWith('[]')) ? '[]' : ''}:${path[path.length - 1]}`;
  let e = known.get(id);
  if (!e) {
    e = evidenceOf(ctx, form, path, declared, resolved);
    known.set(id, e);
  }
  return e;
}

function searchBody(ctx: ClassifyContext, schema: unknown, pointer: string, form: boolean): BodySearch {
  const root = ctx.api.root;
  const search = (): BodySearch => {
    const possible: PossibleField[] = [];
    const found = findKeyField(ctx.memo, root, schema, pointer, (_name, s, r, at) => {
      const e = propertyEvidence(ctx, form, at.path, s, r);
      if (e.verdict === 'possible' && !possible.some((p) => p.pointer === at.pointer))
        possible.push({ in: form ? 'form' : 'body', path: at.path, pointer: at.pointer, signals: e.signals });
      return e.verdict === 'key';
    });
    return { search: found, possible };
  };
  const ref = refOnly(schema);
  if (ref === undefined || root === null || typeof root !== 'object') return search();
  const cache = perRootAndHeuristics(ctx.memo.get(BY_REF), root, ctx.h, () => new Map<string, BodySearch>());
  const id = `${form ? 'f' : 'b'}${ref}`;
  let hit = cache.get(id);
  if (!hit) {
    hit = search();
    cache.set(id, hit);
  }
  return hit;
}

/** The `$ref` of a schema that is nothing but a `$ref` (siblings would make the search depend on the operation). */
function refOnly(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const keys = Object.keys(schema);
  const ref = (schema as { $ref?: unknown }).$ref;
  return keys.length === 1 && typeof ref === 'string' ? ref : undefined;
}

/** The first media type whose schema carries the key in every variant, else the first that carries it in some. */
export function findBodyKey(
  op: HttpOperation,
  ctx: ClassifyContext,
  possible: PossibleField[] = [],
): BodyKey | undefined {
  let partial: BodyKey | undefined;
  for (const m of op.requestBody?.content ?? []) {
    if (m.schema === undefined) continue;
    const pointer = `${m.pointer}/schema`;
    const form = isFormMedia(m.mediaType);
    const { search, possible: maybe } = searchBody(ctx, m.schema, pointer, form);
    for (const p of maybe) if (!possible.some((q) => q.pointer === p.pointer)) possible.push(p);
    if (!search) continue;
    const carrier = carrierOf(ctx, search, form);
    const where = search.hits.length > 1 ? ` in ${search.hits.length} variants` : '';
    const [hit] = search.hits;
    // A field declared on its own (a Swagger 2.0 formData parameter) is pointed at where it is declared.
    const at = (hit.path.length === 1 ? m.fieldPointers?.[hit.path[0]] : undefined) ?? hit.pointer;
    const r = reason('native_field', `request body (${m.mediaType}) has the key field ${carrier.name}${where}`, at);
    const signals = evidenceOf(ctx, form, hit.path, hit.declared, hit.schema).signals;
    if (signals.length > 0) r.signals = signals;
    const found: BodyKey = { carrier, reasons: [r], search, pointer };
    if (search.missing.length === 0) return found;
    partial ??= found;
  }
  return partial;
}

/** A key in only some `oneOf`/`anyOf` variants: a call with one of the others is not deduplicated. */
export function reportPartialBodyKey(op: HttpOperation, ctx: ClassifyContext, found: BodyKey): void {
  const { missing } = found.search;
  if (missing.length === 0) return;
  const keyed = found.carrier.variants?.map((v) => v.pointer).join(', ') ?? '';
  addFinding(
    ctx,
    'key_in_some_variants',
    `${op.key}: the request body carries the key ${found.carrier.name} only in variants ${keyed}; a call with variant ${missing.join(', ')} sends no key the API knows, so its retries are not deduplicated`,
    found.pointer,
    {
      hint: 'add the key field to every variant, or set overrides[…].mechanism to fail-closed if those variants matter',
    },
  );
}
