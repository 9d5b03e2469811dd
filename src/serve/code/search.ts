/**
 * Code mode's `search`: operations ranked for a free-text query, each with a compact TypeScript-like
 * signature of `api.<tool>(args)` so a model can write the call without another round trip. The key
 * argument is left out (code mode derives it) and so are server-filled arguments.
 */
import type { ToolBinding } from '@idemgen/runtime/tools';

type Schema = Record<string, unknown>;

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Words too common to tell operations apart. */
const STOP = new Set(['a', 'an', 'the', 'to', 'of', 'for', 'in', 'on', 'by', 'with', 'and', 'or', 'my', 'all', 'new']);

/** Lower-case words, camelCase split, a plural `s` dropped (`Refunds` → `refund`). */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOP.has(w))
    .map((w) => (w.length > 3 && w.endsWith('ies') ? `${w.slice(0, -3)}y` : w))
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/** Verbs in a query and the HTTP methods they suggest. */
const VERBS: Record<string, readonly string[]> = {
  create: ['POST', 'PUT'],
  add: ['POST', 'PUT'],
  make: ['POST'],
  send: ['POST'],
  refund: ['POST'],
  cancel: ['POST', 'DELETE'],
  update: ['POST', 'PATCH', 'PUT'],
  change: ['POST', 'PATCH', 'PUT'],
  set: ['POST', 'PATCH', 'PUT'],
  delete: ['DELETE'],
  remove: ['DELETE'],
  get: ['GET'],
  list: ['GET'],
  find: ['GET'],
  retrieve: ['GET'],
  read: ['GET'],
  show: ['GET'],
  search: ['GET'],
};

interface Indexed {
  binding: ToolBinding;
  /** Words of the last literal path segment (`/v1/refunds` → `refund`): the resource the call acts on. */
  last: Set<string>;
  /** The other literal path segments and the tool name. */
  path: Set<string>;
  title: Set<string>;
  /** Top-level argument names and the body's own property names. */
  args: Set<string>;
  tags: Set<string>;
  text: Set<string>;
  /** The path ends in a parameter (`/v1/refunds/{refund}`): the call acts on one existing object. */
  onObject: boolean;
  depth: number;
}

export interface SearchIndex {
  entries: Indexed[];
  /** In how many operations each word occurs (any field): rare words tell operations apart. */
  df: Map<string, number>;
}

function argNames(schema: Record<string, unknown>): string[] {
  const props = isObj(schema.properties) ? schema.properties : {};
  const body = props.body;
  const inner = isObj(body) && isObj(body.properties) ? Object.keys(body.properties) : [];
  return [...Object.keys(props), ...inner];
}

export function indexBindings(bindings: readonly ToolBinding[]): SearchIndex {
  const df = new Map<string, number>();
  const entries = bindings.map((b) => {
    const segments = b.path.split('/').filter((s) => s !== '');
    const literals = segments.filter((s) => !s.startsWith('{'));
    const summary = b.title ?? b.description.split('\n')[0] ?? '';
    const x: Indexed = {
      binding: b,
      last: new Set(words(literals.at(-1) ?? '')),
      path: new Set(words(`${literals.slice(0, -1).join(' ')} ${b.names.mcp}`)),
      title: new Set(words(summary)),
      args: new Set(words(argNames(b.inputSchema).join(' '))),
      tags: new Set(words((b.tags ?? []).join(' '))),
      text: new Set(words(b.description)),
      onObject: segments.at(-1)?.startsWith('{') ?? false,
      depth: segments.length,
    };
    const all = new Set([...x.last, ...x.path, ...x.title, ...x.args, ...x.tags, ...x.text]);
    for (const w of all) df.set(w, (df.get(w) ?? 0) + 1);
    return x;
  });
  return { entries, df };
}

/** Per query word, the best field it occurs in. */
const FIELDS: readonly [keyof Indexed, number][] = [
  ['last', 4],
  ['path', 3],
  ['title', 2],
  ['args', 2],
  ['tags', 1],
  ['text', 1],
];

const CREATE_VERBS = new Set(['create', 'add', 'make', 'send', 'refund', 'new']);

/**
 * Each query word scores the best field it occurs in (the resource the path ends in most, then the rest
 * of the path and the name, the summary and argument names, then tags and the description), weighted by
 * how rare the word is across the API. A query verb that fits the method adds a point; a query that
 * starts with a verb the method does not fit (`refund …` against a GET) halves the score, and a
 * create-like verb against a write on one existing object (`POST …/refunds/{refund}` is an update)
 * takes 40% off. Ties go to the shorter path, then to spec order, so the output is stable.
 */
function rank(index: SearchIndex, query: string, limit: number): ToolBinding[] {
  const q = [...new Set(words(query))];
  const total = index.entries.length;
  const idf = (w: string): number => Math.log(1 + total / (1 + (index.df.get(w) ?? 0)));
  const methods = new Set(q.flatMap((w) => VERBS[w] ?? []));
  const leadWord = q[0] ?? '';
  const lead = VERBS[leadWord];
  const scored = index.entries.map((x, i) => {
    let s = 0;
    for (const w of q) {
      let best = 0;
      for (const [field, weight] of FIELDS) if ((x[field] as Set<string>).has(w)) best = Math.max(best, weight);
      s += best * idf(w);
    }
    if (s === 0) return { x, i, s };
    const method = x.binding.method.toUpperCase();
    if (methods.has(method)) s += 1;
    if (lead !== undefined && !lead.includes(method)) s *= 0.5;
    if (CREATE_VERBS.has(leadWord) && x.onObject && method !== 'GET') s *= 0.6;
    return { x, i, s };
  });
  return scored
    .filter((e) => e.s > 0)
    .sort((a, b) => b.s - a.s || a.x.depth - b.x.depth || a.i - b.i)
    .slice(0, limit)
    .map((e) => e.x.binding);
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const prop = (name: string): string => (IDENT.test(name) ? name : JSON.stringify(name));

/** A schema as a short TypeScript-like type; nesting past `depth` becomes `{…}`. */
function typeOf(schema: unknown, depth = 2): string {
  if (!isObj(schema)) return 'unknown';
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.slice(0, 8).map((v) => JSON.stringify(v));
    return values.join(' | ') + (schema.enum.length > 8 ? ' | …' : '');
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const k of ['anyOf', 'oneOf'] as const) {
    const alts = schema[k];
    if (Array.isArray(alts) && alts.length > 0) {
      const parts = [...new Set(alts.slice(0, 4).map((a) => typeOf(a, depth)))];
      return parts.join(' | ') + (alts.length > 4 ? ' | …' : '');
    }
  }
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'object';
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  const names = type.filter((t): t is string => typeof t === 'string');
  if (names.includes('array')) return `${wrap(typeOf(schema.items, depth))}[]`;
  if (names.includes('object') || isObj(schema.properties)) {
    const props = isObj(schema.properties) ? schema.properties : {};
    const keys = Object.keys(props);
    if (keys.length === 0) return 'object';
    if (depth <= 0) return '{…}';
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const shown = keys
      .slice(0, 12)
      .map((k) => `${prop(k)}${required.has(k) ? '' : '?'}: ${typeOf(props[k], depth - 1)}`);
    return `{ ${shown.join('; ')}${keys.length > 12 ? '; …' : ''} }`;
  }
  if (names.length === 0) return 'unknown';
  return names.map((t) => (t === 'integer' ? 'number' : t)).join(' | ');
}

const wrap = (t: string): string => (/[|{ ]/.test(t) ? `(${t})` : t);

/** `api.name(args: {…})`: the key property and the server's own arguments removed. */
function signature(b: ToolBinding, hidden: ReadonlySet<string>): string {
  const schema = b.inputSchema;
  const props = isObj(schema.properties) ? schema.properties : {};
  const keep = Object.keys(props).filter((k) => k !== b.keyProperty && !hidden.has(k));
  const required = Array.isArray(schema.required) ? schema.required.filter((k) => keep.includes(String(k))) : [];
  const args = typeOf({ type: 'object', properties: Object.fromEntries(keep.map((k) => [k, props[k]])), required }, 3);
  return `api${IDENT.test(b.names.mcp) ? `.${b.names.mcp}` : `[${JSON.stringify(b.names.mcp)}]`}(${keep.length === 0 ? '' : `args: ${args}`})`;
}

export interface SearchResult {
  name: string;
  operation: string;
  effect: 'read' | 'write';
  summary: string;
  signature: string;
}

export function searchOperations(
  index: SearchIndex,
  query: string,
  hidden: ReadonlySet<string>,
  limit = 8,
): SearchResult[] {
  return rank(index, query, Math.max(1, Math.min(limit, 30))).map((b) => ({
    name: b.names.mcp,
    operation: b.operation,
    effect: b.effect,
    summary: (b.title ?? b.description.split('\n')[0] ?? '').slice(0, 160),
    signature: signature(b, hidden),
  }));
}
