/**
 * Step beside the mechanism: how to tell afterwards whether one call of a write took effect, found in the
 * spec (runtime/verify/types.ts has the shapes). The evidence goes into the audit like a key carrier's:
 * - natural-key: a required request value addresses a read of the created thing (`POST /zones` with body
 *   `name` → `GET /zones/{name}`; a PUT to `/things/{name}` → `GET /things/{name}`);
 * - client-reference: the body has a field the API stores for the client (`metadata`, `external_id`,
 *   `client_reference_id`, `custom_args`) and a list of the same collection filters on it;
 * - refused-duplicate: the spec says a second create of the same identifier is refused (`409 … already exists`).
 * Overrides declare a plan or forbid one (`verification: false`).
 */
import type { OperationOverride, VerificationOverride } from '../config/types.js';
import { followRef, isObject } from '../json-pointer/refs.js';
import type { HttpOperation, Operation } from '../ir/types.js';
import type { LookupArg, LookupRead, VerificationPlan } from '@idemgen/runtime/internal/verify/types.js';
import { addFinding, reason, type ClassifyContext } from './context.js';
import { collectionBase } from './path-index.js';
import { fieldsOf, okResponses, requestFields, type FieldInfo } from './schema-props.js';
import type { Reason } from './types.js';
import { memoSlot } from './memo.js';

export interface FoundPlan {
  plan: VerificationPlan;
  reason: Reason;
}

/** Fields an API keeps for the client and returns on the resource: scalar ones take the stamp as their value. */
const REFERENCE_FIELDS = new Set([
  'external_id',
  'externalid',
  'client_reference_id',
  'clientreferenceid',
  'reference_id',
  'referenceid',
  'external_reference',
  'externalreference',
  'client_reference',
  'clientreference',
  'merchant_reference',
  'merchantreference',
  'external_ref',
  'externalref',
]);

/** Free-form maps an API stores: the stamp goes in under its own name. */
const MAP_FIELDS = new Set(['metadata', 'custom_args', 'customargs', 'custom_fields', 'customfields']);

/** The field inside a map that carries the stamp. */
const STAMP_FIELD = 'idemgen_key';

/** Conventional names of a list response's array. */
const ITEM_FIELDS = ['data', 'items', 'results', 'records', 'entries', 'values', 'elements', 'list'];

/** A sentence saying the thing the request names is there already. */
const REFUSAL =
  /already (?:exists?|existed|taken|in use|registered|created|assigned|in place)|\bis in use\b|\bwith (?:the )?same \w+|duplicate|not unique|must be unique|unique constraint/i;

/** "already been <done>": the state the call asks for is reached (`…/cancel` → "already been cancelled"). */
const REACHED = /already been (\w+)/i;

/**
 * A sentence that gives other causes for the same status, or says the clash is with someone else's thing
 * ("already assigned to another project"): a refusal then proves nothing about this call.
 */
const HEDGE =
  /\b(?:normally|usually|could|may|might|either|possibly)\b|\b(?:to|by|in|for|with) another\b|,\s*or\b|\(or\b|\bor\s+(?:if|when|the)\b/i;

/** Nouns a refusal may name; when it names some, the request must carry one of them. */
const NOUNS = /\b(?:user ?name|host ?name|name|key|e-?mail|slug|number)\b/gi;

/** The same 409 sentence on this many POSTs of one API is the API's boilerplate, not about one create's identifier. */
const BOILERPLATE = 6;

/** Words of an update (`Updates a zone`, `Create or update`, `Replace the file`, `edit`, `modify`, `change`). */
const UPDATE = /\b(?:updat|modif|chang|edit(?:s|ed|ing)?\b|patch|replac)/i;

/**
 * Whether the operation says it updates, in its summary or its description's first sentence (later ones
 * describe the result: "a new version … with updated `info.version`"): the thing may be there before the
 * call, so finding it proves nothing, and a refusal proves no duplicate create (an update creates nothing).
 * The one test for every rule here.
 */
function saysUpdate(op: HttpOp): boolean {
  const first = /^[^\n]*?(?:[.!?](?=\s|$)|\n|$)/.exec((op.description ?? '').trimStart())?.[0] ?? '';
  return UPDATE.test(`${op.summary ?? ''} ${first}`.slice(0, 300));
}

type HttpOp = HttpOperation;

/**
 * A path as every rule here compares it: trailing slashes and a format suffix dropped, so `/admin/backups.json`
 * is the collection of `/admin/backups/{filename}` and `/things/{id}.json` its item.
 */
function pathKey(path: string): string {
  return collectionBase(path).replace(/\.\w+$/, '');
}

interface PathIndex {
  /** GET operations by `pathKey` (the first in operation order). */
  reads: Map<string, HttpOp>;
  /** `pathKey` of every POST: a collection with a create. */
  creates: Set<string>;
  /** The reads one segment below a path that begins with a parameter (`/zones/{name}` under `/zones`), in order. */
  items: Map<string, [string, HttpOp][]>;
}

const PATHS = memoSlot('verification paths', () => new WeakMap<ReadonlyMap<string, Operation>, PathIndex>());

/** The API's GETs and POSTs by path, built once per API (a scan per PUT was quadratic). */
function pathsOf(ctx: ClassifyContext): PathIndex {
  const cache = ctx.memo.get(PATHS);
  let index = cache.get(ctx.byKey);
  if (index === undefined) {
    index = { reads: new Map(), creates: new Set(), items: new Map() };
    for (const o of ctx.byKey.values()) {
      if (o.kind !== 'http') continue;
      const key = pathKey(o.path);
      if (o.method === 'get' && !index.reads.has(key)) index.reads.set(key, o);
      else if (o.method === 'post') index.creates.add(key);
    }
    for (const [key, read] of index.reads) {
      const at = key.lastIndexOf('/');
      if (key[at + 1] !== '{') continue;
      const parent = key.slice(0, at);
      const list = index.items.get(parent) ?? [];
      list.push([key, read]);
      index.items.set(parent, list);
    }
    cache.set(ctx.byKey, index);
  }
  return index;
}

const readsByPath = (ctx: ClassifyContext): Map<string, HttpOp> => pathsOf(ctx).reads;

const pathNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
const norm = (s: string) => s.toLowerCase().replace(/[-\s]/g, '_');

function isScalar(root: unknown, schema: unknown): boolean {
  const s = followRef(root, schema, '').value;
  if (!isObject(s)) return false;
  const t = s.type;
  return t === 'string' || t === 'integer' || (Array.isArray(t) && (t.includes('string') || t.includes('integer')));
}

function isMap(root: unknown, schema: unknown): boolean {
  const s = followRef(root, schema, '').value;
  if (!isObject(s)) return false;
  return s.type === 'object' || s.additionalProperties !== undefined;
}

/** The read's path parameters that the write's own path parameters fill (same name), or undefined when one is not. */
function sharedPathArgs(op: HttpOp, read: HttpOp, skip: string): LookupArg[] | undefined {
  const own = new Set(op.parameters.filter((p) => p.in === 'path').map((p) => p.name));
  const out: LookupArg[] = [];
  for (const n of pathNames(read.path)) {
    if (n === skip) continue;
    if (!own.has(n)) return undefined;
    out.push({ in: 'path', name: n, value: { from: 'request', in: 'path', name: n } });
  }
  return out;
}

const flat = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Words that name a thing by what the caller calls it, not by the number the server gave it. */
const NAMING = /(name|slug|key|email|code|login|handle)$/;

/**
 * The naming words a caller fills in even where the schema leaves them optional. An optional `key` or `code`
 * is as often one the server makes when none is sent (`domain_key`), so those count only when required.
 */
const CHOSEN = /(name|slug|email|login|handle)$/;

/**
 * The body field a read's last path parameter names, compared without case or separators: the same name
 * (`{Name}` ← `name`), `{zone_name}` / `{zoneName}` ← `name`, or `{tag}` ← `tag_name`. The field must be a
 * scalar the caller writes: not readOnly (the server's), not a uuid (a create names another resource by its
 * uuid, e.g. `file_id` of the file it attaches). It must be required unless it is a name the caller picks
 * (`name`, `username`, `email`, `slug`): an optional name still addresses the read when the call carries it,
 * and a call without it has no lookup value, which the runtime reads as unknown.
 */
function naturalField(param: string, body: Map<string, FieldInfo>, root: unknown): string | undefined {
  const p = flat(param);
  // `{zone_name}`, `{zoneName}` → `name`; not `{username}`, which is one word and names a user, not a name.
  const parts = /^[A-Za-z0-9_-]+?(?:[_-]([A-Za-z]+)|([A-Z][a-z]+))$/.exec(param);
  const last = (parts?.[1] ?? parts?.[2])?.toLowerCase();
  const suffix = last !== undefined && NAMING.test(last) && NAMING.exec(last)?.[0] === last ? last : undefined;
  const fits = (f: string) => {
    const n = flat(f);
    return n === p || n === `${p}name` || (suffix !== undefined && n === suffix);
  };
  for (const [name, info] of body) {
    // A leading underscore (`_id`) marks the store's own field, not a name the caller picked.
    if (name.startsWith('_') || !fits(name)) continue;
    const s = followRef(root, info.schema, '').value;
    if (!isScalar(root, info.schema) || !isObject(s) || s.readOnly === true || s.format === 'uuid') continue;
    if (info.required || CHOSEN.test(flat(name))) return name;
  }
  return undefined;
}

/** A read whose answer is a list (a top-level array or a page of items) lists things; it does not address one. */
function readsList(read: HttpOp, root: unknown): boolean {
  return itemsPath(read, root) !== undefined;
}

/**
 * Whether a PUT's own path is the caller's name for what the call makes, so that the GET of that path tells
 * whether it happened (never when the PUT says it also updates):
 * - the path ends in a parameter and its collection has no POST (a collection with a create hands out the
 *   ids, and a PUT to one of them updates what is already there: finding it proves nothing);
 * - or the path ends in a word (`…/merge`, `…/scale`) and the GET of it answers by status alone — a success
 *   without a body and a 404 — so the read says yes or no about that state; a subresource that always reads
 *   back (a scale, a deployment log) says nothing about this call.
 */
function putAddressesCall(op: HttpOp, same: HttpOp, ctx: ClassifyContext): boolean {
  // "Create or update": the item may be there before the call, so finding it proves nothing.
  if (saysUpdate(op)) return false;
  const segments = pathKey(op.path).split('/');
  const tail = segments.at(-1) ?? '';
  // `/admin/backups.json` is the create of `/admin/backups/{filename}` too (pathKey).
  if (/^\{[^}]+\}$/.test(tail)) return !pathsOf(ctx).creates.has(segments.slice(0, -1).join('/'));
  const ok = okResponses(same);
  return ok.length > 0 && ok.every((r) => r.content.length === 0) && same.responses.some((r) => r.status === '404');
}

function naturalKey(op: HttpOp, ctx: ClassifyContext): FoundPlan | undefined {
  const root = ctx.api.root;
  const reads = readsByPath(ctx);
  const body = requestFields(root, op);
  // A PUT (or POST) to the item path itself: the path value is the client's identifier.
  const same = reads.get(pathKey(op.path));
  const names = pathNames(op.path);
  if (same !== undefined && names.length > 0 && op.method === 'put' && putAddressesCall(op, same, ctx)) {
    const args = sharedPathArgs(op, same, '');
    if (args !== undefined && pathNames(same.path).length === names.length) {
      const read: LookupRead = { operation: same.key, method: 'GET', path: same.path, args };
      const byStatus = !/\}$/.test(pathKey(op.path));
      return {
        plan: { shape: 'natural-key', read },
        reason: reason(
          'verification_natural_key',
          byStatus
            ? `${same.key} answers by status alone (a bodiless success, or 404): success → it happened, 404 → it did not`
            : `path {${names[names.length - 1]}} is chosen by the caller and addresses ${same.key}: found → it happened, 404 → it did not`,
          op.source.pointer,
        ),
      };
    }
  }
  if (op.method !== 'post' || body.size === 0) return undefined;
  for (const [path, read] of pathsOf(ctx).items.get(pathKey(op.path)) ?? []) {
    const last = pathNames(path).at(-1)!;
    const field = naturalField(last, body, root);
    if (field === undefined || readsList(read, root)) continue;
    const shared = sharedPathArgs(op, read, last);
    if (shared === undefined) continue;
    const args: LookupArg[] = [
      ...shared,
      { in: 'path', name: last, value: { from: 'request', in: 'body', name: field } },
    ];
    return {
      plan: { shape: 'natural-key', read: { operation: read.key, method: 'GET', path: read.path, args } },
      reason: reason(
        'verification_natural_key',
        `${body.get(field)?.required ? 'required body' : 'body'} ${field} addresses ${read.key} as {${last}}: found → it happened, 404 → it did not${body.get(field)?.required ? '' : ' (a call without it stays unknown)'}`,
        op.source.pointer,
      ),
    };
  }
  return undefined;
}

/** Where a list response keeps its items: `[]` for a top-level array. */
function itemsPath(read: HttpOp, root: unknown): string[] | undefined {
  for (const r of okResponses(read)) {
    for (const m of r.content) {
      if (!m.mediaType.toLowerCase().includes('json')) continue;
      const s = followRef(root, m.schema, '').value;
      if (isObject(s) && s.type === 'array') return [];
      const fields = fieldsOf(root, m.schema);
      for (const f of ITEM_FIELDS) {
        const v = fields.get(f);
        if (v === undefined) continue;
        const fs = followRef(root, v.schema, '').value;
        if (isObject(fs) && fs.type === 'array') return [f];
      }
    }
  }
  return undefined;
}

function clientReference(op: HttpOp, ctx: ClassifyContext): FoundPlan | undefined {
  const root = ctx.api.root;
  if (op.method !== 'post' && op.method !== 'put') return undefined;
  const body = requestFields(root, op);
  const reads = readsByPath(ctx);
  const base = pathKey(op.path);
  for (const [name, info] of body) {
    const n = norm(name);
    const scalar = REFERENCE_FIELDS.has(n) && isScalar(root, info.schema);
    const map = MAP_FIELDS.has(n) && isMap(root, info.schema);
    if (!scalar && !map) continue;
    for (const path of [base, `${base}/search`]) {
      const read = reads.get(path);
      if (read === undefined) continue;
      const filter = read.parameters.find((p) => p.in === 'query' && norm(p.name) === n);
      if (filter === undefined) continue;
      const items = itemsPath(read, root);
      const shared = sharedPathArgs(op, read, '');
      if (items === undefined || shared === undefined) continue;
      const stampPath = scalar ? [name] : [name, STAMP_FIELD];
      const arg: LookupArg = scalar
        ? { in: 'query', name: filter.name, value: { from: 'stamp' } }
        : { in: 'query', name: filter.name, value: { from: 'stamp-object', field: STAMP_FIELD } };
      const plan: VerificationPlan = {
        shape: 'client-reference',
        stamp: { path: stampPath },
        read: {
          operation: read.key,
          method: 'GET',
          path: read.path,
          args: [...shared, arg],
          items,
          matchPath: stampPath,
        },
      };
      return {
        plan,
        reason: reason(
          'verification_client_reference',
          `body ${stampPath.join('.')} is stamped with a value derived from the key; ${read.key} filters on query ${filter.name}: one match → it happened, none → it did not, two → unknown`,
          op.source.pointer,
        ),
      };
    }
  }
  return undefined;
}

const CONFLICTS = memoSlot(
  'verification conflicts',
  () => new WeakMap<ReadonlyMap<string, Operation>, Map<string, number>>(),
);

/** How many POSTs of the API carry each 409 sentence (PUT and PATCH of the same resource repeat it), once per API. */
function conflictCounts(ctx: ClassifyContext): Map<string, number> {
  const cache = ctx.memo.get(CONFLICTS);
  let m = cache.get(ctx.byKey);
  if (m === undefined) {
    m = new Map();
    for (const o of ctx.byKey.values()) {
      if (o.kind !== 'http' || o.method !== 'post') continue;
      for (const r of o.responses) {
        const text = (r.description ?? '').trim();
        if (r.status === '409' && text !== '') m.set(text, (m.get(text) ?? 0) + 1);
      }
    }
    cache.set(ctx.byKey, m);
  }
  return m;
}

/**
 * Whether a 409 sentence says that what this request names exists already (or that the state this action asks
 * for is reached), and says nothing else: no other cause, no boilerplate, no noun the request does not carry.
 */
/** Property names of a body, `depth` levels into objects (`user_info.email` counts as `email`). */
function fieldNames(root: unknown, fields: Map<string, FieldInfo>, depth: number): string[] {
  const out = [...fields.keys()];
  if (depth > 0) for (const f of fields.values()) out.push(...fieldNames(root, fieldsOf(root, f.schema), depth - 1));
  return out;
}

function refuses(op: HttpOp, text: string, ctx: ClassifyContext): boolean {
  if (HEDGE.test(text)) return false;
  if ((conflictCounts(ctx).get(text.trim()) ?? 0) >= BOILERPLATE) return false;
  if (REFUSAL.test(text)) {
    const nouns = [...text.matchAll(NOUNS)].map((m) => flat(m[0]));
    if (nouns.length === 0) return true;
    const carried = [
      ...fieldNames(ctx.api.root, requestFields(ctx.api.root, op), 2),
      ...op.parameters.map((p) => p.name),
    ].map(flat);
    return nouns.some((n) => carried.some((c) => c.includes(n)));
  }
  const reached = REACHED.exec(text);
  if (reached === null) return false;
  // Only the action's own state: `…/cancel` answered "already been cancelled", and no list of states.
  const action = op.path
    .replace(/\/+$/, '')
    .split('/')
    .filter((x) => x !== '' && !x.startsWith('{'))
    .at(-1);
  const stem = action === undefined ? '' : flat(action).replace(/e$/, '');
  return stem.length >= 3 && flat(reached[1]!).startsWith(stem) && !/\bor\b/i.test(text);
}

function refusedDuplicate(op: HttpOp, ctx: ClassifyContext): FoundPlan | undefined {
  if (op.method !== 'post' && op.method !== 'put') return undefined;
  if (saysUpdate(op)) return undefined;
  // A POST to an item the server numbered (`/files/{file_id}`) acts on it (restore, copy): a clash there is with
  // another item, not a repeat of this call.
  if (op.method === 'post' && /\{[^}]*id\}\/?$/i.test(op.path)) return undefined;
  const statuses: number[] = [];
  let said = '';
  for (const r of op.responses) {
    // Only a 409: a 400/422 that also covers other validation failures would read a refused repeat as "done".
    const code = Number(r.status);
    if (code !== 409) continue;
    const text = r.description ?? '';
    if (!refuses(op, text, ctx)) continue;
    statuses.push(code);
    said ||= `${code} "${text.length > 80 ? `${text.slice(0, 77)}…` : text}"`;
  }
  if (statuses.length === 0) return undefined;
  return {
    plan: { shape: 'refused-duplicate', statuses },
    reason: reason(
      'verification_refused_duplicate',
      `the spec answers a second create with ${said}: after an unknown outcome the call runs once more and that refusal means the first one happened`,
      op.source.pointer,
    ),
  };
}

/** An override's plan, built against the API's operations; a finding and no plan when it names what is not there. */
function fromOverride(op: Operation, v: VerificationOverride, ctx: ClassifyContext, at: string): FoundPlan | undefined {
  const pointer = op.source.pointer;
  if (v.shape === 'refused-duplicate') {
    const statuses = v.statuses ?? [409];
    return {
      plan: { shape: 'refused-duplicate', statuses },
      reason: reason('verification_override', `${at} declares refused-duplicate (${statuses.join(', ')})`),
    };
  }
  const read = v.read === undefined ? undefined : ctx.byKey.get(v.read);
  if (read?.kind !== 'http' || read.method !== 'get') {
    addFinding(
      ctx,
      'verification_read_missing',
      `${at}.read names ${String(v.read)}, which is not a GET operation of ${ctx.api.id}`,
      pointer,
    );
    return undefined;
  }
  const args: LookupArg[] = [];
  const given = v.args ?? {};
  for (const n of pathNames(read.path)) {
    const src = given[n] ?? `path.${n}`;
    const [where, ...rest] = src.split('.');
    if ((where !== 'path' && where !== 'query' && where !== 'body') || rest.length === 0) {
      addFinding(
        ctx,
        'verification_read_missing',
        `${at}.args.${n} = ${JSON.stringify(src)}: expected path.NAME, query.NAME or body.FIELD`,
        pointer,
      );
      return undefined;
    }
    args.push({ in: 'path', name: n, value: { from: 'request', in: where, name: rest.join('.') } });
  }
  if (v.shape === 'natural-key')
    return {
      plan: { shape: 'natural-key', read: { operation: read.key, method: 'GET', path: read.path, args } },
      reason: reason('verification_override', `${at} declares natural-key through ${read.key}`),
    };
  const stamp = (v.stamp ?? `metadata.${STAMP_FIELD}`).split('.');
  const filter = v.filter ?? stamp[0]!;
  const value =
    v.template !== undefined
      ? ({ from: 'stamp', template: v.template } as const)
      : stamp.length > 1
        ? ({ from: 'stamp-object', field: stamp.slice(1).join('.') } as const)
        : ({ from: 'stamp' } as const);
  const items =
    v.items === undefined ? (itemsPath(read, ctx.api.root) ?? []) : v.items === '' ? [] : v.items.split('.');
  return {
    plan: {
      shape: 'client-reference',
      stamp: { path: stamp },
      read: {
        operation: read.key,
        method: 'GET',
        path: read.path,
        args: [...args, { in: 'query', name: filter, value }],
        items,
        matchPath: stamp,
      },
    },
    reason: reason(
      'verification_override',
      `${at} declares client-reference: body ${stamp.join('.')} searched by ${read.key} query ${filter}`,
    ),
  };
}

/** The plan for one write, or undefined (no plan: an unknown outcome stays unknown). */
export function findVerification(
  op: Operation,
  ctx: ClassifyContext,
  override: OperationOverride | undefined,
  overrideKey?: string,
): FoundPlan | undefined {
  if (override?.verification === false) return undefined;
  if (override?.verification !== undefined)
    return fromOverride(op, override.verification, ctx, `config.overrides["${overrideKey ?? op.key}"].verification`);
  if (op.kind !== 'http') return undefined;
  return naturalKey(op, ctx) ?? clientReference(op, ctx) ?? refusedDuplicate(op, ctx);
}

/** The plan as a paste-ready override (`idemgen.config.json` → `overrides[op].verification`), for the audit. */
export function overrideOf(plan: VerificationPlan): VerificationOverride {
  if (plan.shape === 'refused-duplicate') return { shape: plan.shape, statuses: [...plan.statuses] };
  const args: Record<string, string> = {};
  for (const a of plan.read.args)
    if (a.in === 'path' && a.value.from === 'request') args[a.name] = `${a.value.in}.${a.value.name}`;
  if (plan.shape === 'natural-key') return { shape: plan.shape, read: plan.read.operation, args };
  const filter = plan.read.args.find((a) => a.value.from !== 'request');
  const out: VerificationOverride = {
    shape: plan.shape,
    read: plan.read.operation,
    stamp: plan.stamp.path.join('.'),
    args,
  };
  if (filter !== undefined) out.filter = filter.name;
  if (filter?.value.from === 'stamp' && filter.value.template !== undefined) out.template = filter.value.template;
  if (plan.read.items !== undefined) out.items = plan.read.items.join('.');
  return out;
}
