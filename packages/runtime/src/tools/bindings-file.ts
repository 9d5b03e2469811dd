/**
 * The bindings file (the JSON text of `handlers/<api>.bindings.gen.ts`) and its loader. The file holds what cannot be derived:
 *
 *   {"tools":[
 *     {binding},            one stored binding per line, in plan order
 *     …
 *   ],
 *   "shared":[
 *     {value},              a property schema or member value several bindings have, one per line
 *     …
 *   ],
 *   "defs":{
 *     "Name":{definition},  one shared `$defs` entry per line, sorted by name
 *     …
 *   }}
 *
 * A stored binding differs from a `ToolBinding` only where the loader puts the value back exactly: no
 * `name` when the MCP, OpenAI and Anthropic names are the client method name (`name` when they agree,
 * else `names`); no `method` and `path` when they are the `operation` key (`<METHOD> <path>`); no
 * `pathParams`, `queryParams` or `queryStyles` when they are what the routes name (`routeParams`); no `description` when it
 * is the `title`; a route as `"<in>:<property>"` when its parameter has the property's name and no style
 * (else an object without `name` when it is the property); an index into `shared` for each input
 * property schema and for `annotations`, `security`, `body`, `carrier` and `keyLimits`; and an input
 * schema without `$defs`: its definitions are the `defs` entries it reaches (`defs` in the binding maps a
 * local name to another entry where two definitions share a name but not their content; `defNames` lists
 * them where reaching would not give exactly the tool's set). The OpenAI strict form is not stored:
 * strict/of-binding.ts derives it. Each tool's self-contained schema is assembled the first time it is
 * read, then kept. A JSON array of whole bindings (the form before this one) loads as it is. Either form is
 * checked at load (see checkFile): a hand-edited file fails with the place it is wrong. A file generated before
 * the operation record (its bindings name the client method `method` and the request `http`, stored without it
 * when it is the operation key) loads through the same door (legacy-binding.ts).
 */
import { setOwn } from './strict/own.js';
import { ownDefRefs, reachableDefs } from './schema-refs.js';
import type { ArgRoute, ToolBinding } from './types.js';
import { decodeBinding, routeParams, type LegacyToolBinding } from './legacy-binding.js';

type Obj = Record<string, unknown>;

/** One binding as the file stores it (see the module comment). */
type StoredBinding = Omit<
  ToolBinding,
  'names' | 'clientMethod' | 'method' | 'path' | 'description' | 'routes' | 'inputSchema' | SharedMember
> & {
  name?: string;
  names?: ToolBinding['names'];
  /** Absent in a file from before the record: its `method` is the client method name, the request `http`. */
  clientMethod?: string;
  method?: string;
  path?: string;
  http?: LegacyToolBinding['http'];
  description?: string;
  routes: (string | (Omit<ArgRoute, 'name'> & { name?: string }))[];
  inputSchema: Obj;
  /** Local definition name → the shared entry it is, where they differ. */
  defs?: Record<string, string>;
  /** The tool's definitions, in order, where they are not exactly the ones its schema reaches (sorted). */
  defNames?: string[];
} & { [M in SharedMember]?: ToolBinding[M] | number };

/** Members stored as an index into `shared` (few distinct values, repeated on many bindings). */
export const SHARED_MEMBERS = ['annotations', 'security', 'body', 'carrier', 'keyLimits'] as const;
type SharedMember = (typeof SHARED_MEMBERS)[number];

interface BindingsFile {
  tools: StoredBinding[];
  shared?: unknown[];
  defs?: Record<string, unknown>;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: object, k: string): boolean => Object.hasOwn(o, k);

/** Node → the definition names it refers to itself (not through definitions). Schemas are never edited once built. */
const directRefs = new WeakMap<object, string[]>();

function refsIn(node: object): string[] {
  let refs = directRefs.get(node);
  if (refs === undefined) {
    refs = ownDefRefs(node);
    directRefs.set(node, refs);
  }
  return refs;
}

/**
 * The definition names a schema reaches, through the definitions `lookup` gives (a name it does not know
 * is still listed), sorted the way the generator sorts `$defs`. What each definition refers to is found once
 * per definition object (Graph: thousands of tools reach one entity graph).
 */
export function reachedDefNames(root: object, lookup: (name: string) => unknown): string[] {
  return [...reachableDefs(root, lookup, refsIn)].sort();
}

function sharedAt(file: BindingsFile, at: number): unknown {
  const shared = file.shared ?? [];
  if (!Number.isInteger(at) || at < 0 || at >= shared.length)
    throw new Error(`tool bindings: no shared value ${at} (the file has ${shared.length})`);
  return shared[at];
}

function routeOf(r: StoredBinding['routes'][number]): ArgRoute {
  if (typeof r === 'string') {
    const at = r.indexOf(':');
    const property = r.slice(at + 1);
    return { property, in: r.slice(0, at) as ArgRoute['in'], name: property };
  }
  const { property, in: where, name, ...rest } = r;
  return { property, in: where, name: name ?? property, ...rest };
}

/** The tool's self-contained input schema: the stored root, its key property back, its definitions. */
function assemble(stored: StoredBinding, file: BindingsFile): Obj {
  const schema = stored.inputSchema;
  const props = schema.properties;
  if (isObj(props))
    for (const name of Object.keys(props)) {
      const at = props[name];
      if (typeof at === 'number') setOwn(props, name, sharedAt(file, at));
    }
  if (own(schema, '$defs')) return schema; // stored whole
  const shared = file.defs ?? {};
  const local = stored.defs ?? {};
  const entry = (name: string): string => (own(local, name) ? (local[name] as string) : name);
  const lookup = (name: string): unknown => {
    const key = entry(name);
    return own(shared, key) ? shared[key] : undefined;
  };
  const names = stored.defNames ?? reachedDefNames(schema, lookup);
  if (names.length === 0) return schema;
  const defs: Obj = {};
  for (const name of names) {
    const key = entry(name);
    if (!own(shared, key))
      throw new Error(
        `tool bindings: the tool ${JSON.stringify(stored.clientMethod ?? stored.method)} reaches the definition ${JSON.stringify(key)}, which the file's "defs" lacks`,
      );
    setOwn(defs, name, shared[key]);
  }
  const out: Obj = { ...schema };
  setOwn(out, '$defs', defs);
  return out;
}

/** One `ToolBinding` from its stored form; the input schema is assembled on first read and kept. */
function expand(stored: StoredBinding, file: BindingsFile): ToolBinding {
  const {
    name,
    names,
    operation,
    http,
    description,
    routes,
    inputSchema: _s,
    defs: _d,
    defNames: _n,
    ...rest
  } = stored;
  const legacy = stored.clientMethod === undefined;
  const one = name ?? stored.clientMethod ?? (stored.method as string);
  const space = operation.indexOf(' ');
  const request = { method: operation.slice(0, space), path: operation.slice(space + 1) };
  const routed = routes.map(routeOf);
  const read = {
    names: names ?? { mcp: one, openai: one, anthropic: one },
    operation,
    // Left out where the operation key and the routes say them (module comment).
    ...(legacy ? { http: http ?? request } : { ...request, ...routeParams(routed) }),
    description: description ?? (stored.title as string),
    routes: routed,
    ...rest,
  };
  const members = read as unknown as Record<SharedMember, unknown>;
  for (const m of SHARED_MEMBERS) if (typeof members[m] === 'number') members[m] = sharedAt(file, members[m]);
  // Decoded before the schema getter is defined: a legacy binding is copied, and the copy gets the getter.
  const b = decodeBinding(read as unknown as ToolBinding | LegacyToolBinding);
  let schema: Obj | undefined;
  Object.defineProperty(b, 'inputSchema', {
    enumerable: true,
    configurable: true,
    get: () => {
      schema ??= assemble(stored, file);
      return schema;
    },
  });
  return b;
}

const ROUTE_IN = new Set(['path', 'query', 'header', 'cookie']);
const isStr = (v: unknown): v is string => typeof v === 'string';
const SHARED_TYPES: Record<SharedMember, (v: unknown) => boolean> = {
  annotations: isObj,
  security: Array.isArray,
  body: (v) => isObj(v) && isStr(v.property) && isStr(v.encoding),
  carrier: (v) => v === null || (isObj(v) && isStr(v.in) && isStr(v.name)),
  keyLimits: isObj,
};

/** A member the loader or the runtime reads, checked where the file says it (a hand-edited file fails here). */
function checkMembers(t: Obj, where: string, shared: unknown[] | undefined): void {
  const bad = (what: string): never => {
    throw new Error(`tool bindings: ${where}: ${what}`);
  };
  const index = (at: unknown, what: string): unknown => {
    const n = shared?.length ?? 0;
    if (!Number.isInteger(at) || (at as number) < 0 || (at as number) >= n)
      bad(`${what} is shared value ${JSON.stringify(at)}, but "shared" has ${n} (0 to ${n - 1})`);
    return (shared as unknown[])[at as number];
  };
  if (t.name !== undefined && !isStr(t.name)) bad('"name" is not a string');
  if (
    t.names !== undefined &&
    !(isObj(t.names) && isStr(t.names.mcp) && isStr(t.names.openai) && isStr(t.names.anthropic))
  )
    bad('"names" lacks its mcp, openai or anthropic string');
  if (t.http !== undefined && !(isObj(t.http) && isStr(t.http.method) && isStr(t.http.path)))
    bad('"http" lacks its method or path string');
  if (t.path !== undefined && !isStr(t.path)) bad('"path" is not a string');
  (t.routes as unknown[]).forEach((r, i) => {
    const ok = isStr(r)
      ? ROUTE_IN.has(r.slice(0, r.indexOf(':')))
      : isObj(r) && isStr(r.property) && ROUTE_IN.has(r.in as string) && (r.name === undefined || isStr(r.name));
    if (!ok) bad(`routes[${i}] is not "<path|query|header|cookie>:<property>" nor {property, in, name?}`);
  });
  for (const m of SHARED_MEMBERS) {
    const v = typeof t[m] === 'number' ? index(t[m], `"${m}"`) : t[m];
    if (v !== undefined && !SHARED_TYPES[m](v)) bad(`"${m}" has the wrong type`);
  }
  const props = (t.inputSchema as Obj).properties;
  if (isObj(props))
    for (const name of Object.keys(props))
      if (typeof props[name] === 'number') {
        const v = index(props[name], `inputSchema property ${JSON.stringify(name)}`);
        if (!isObj(v) && typeof v !== 'boolean') bad(`inputSchema property ${JSON.stringify(name)} is not a schema`);
      }
}

/** The stored definition names (`defs`, `defNames`) and the root's own references name entries that exist. */
function checkDefs(t: Obj, where: string, defs: Obj, shared: unknown[] | undefined): void {
  const bad = (what: string): never => {
    throw new Error(`tool bindings: ${where}: ${what}`);
  };
  if (own(t.inputSchema as Obj, '$defs')) return; // stored whole
  const local = (t.defs ?? {}) as Obj;
  if (!isObj(local)) bad('"defs" is not an object');
  const entry = (name: string): string => (own(local, name) ? (local[name] as string) : name);
  for (const name of Object.keys(local)) {
    const key = local[name];
    if (!isStr(key) || !own(defs, key))
      bad(`"defs" maps ${JSON.stringify(name)} to ${JSON.stringify(key)}, which the file's "defs" lacks`);
  }
  if (t.defNames !== undefined) {
    if (!Array.isArray(t.defNames) || !t.defNames.every(isStr)) bad('"defNames" is not an array of names');
    for (const name of t.defNames as string[])
      if (!own(defs, entry(name))) bad(`"defNames" lists ${JSON.stringify(name)}, which the file's "defs" lacks`);
    return; // the generator lists them where a reference is left dangling on purpose
  }
  const root = t.inputSchema as Obj;
  // Not refsIn: the stored root still holds shared indices, which assembling replaces in place.
  const names = new Set(ownDefRefs(root));
  if (isObj(root.properties))
    for (const v of Object.values(root.properties))
      if (typeof v === 'number' && isObj(shared?.[v])) for (const n of refsIn(shared[v] as object)) names.add(n);
  for (const name of names)
    if (!own(defs, entry(name)))
      bad(`inputSchema refers to the definition ${JSON.stringify(name)}, which the file's "defs" lacks`);
}

/**
 * Problems with the file's shape, each named by where it is (`tools[3] ("createCharge")`): a clear message
 * at load, not a TypeError inside a call. What a definition reaches through other definitions is followed
 * when a tool's schema is first read (Graph: thousands of tools reach one entity graph); a name missing
 * there is reported then, naming the tool.
 */
function checkFile(value: unknown): BindingsFile {
  if (!isObj(value) || !Array.isArray(value.tools))
    throw new Error('tool bindings: expected {"tools": [...]} (or an array of bindings)');
  if (value.shared !== undefined && !Array.isArray(value.shared))
    throw new Error('tool bindings: "shared" is not an array');
  if (value.defs !== undefined && !isObj(value.defs)) throw new Error('tool bindings: "defs" is not an object');
  const shared = value.shared as unknown[] | undefined;
  const defs = (value.defs ?? {}) as Obj;
  value.tools.forEach((t: unknown, i: number) => {
    const name = isObj(t) ? (t.clientMethod ?? t.method) : undefined;
    const where = `tools[${i}]${isStr(name) ? ` (${JSON.stringify(name)})` : ''}`;
    if (
      !isObj(t) ||
      !isObj(t.inputSchema) ||
      !isStr(name) ||
      !isStr(t.operation) ||
      (t.http === undefined && t.path === undefined && !t.operation.includes(' ')) ||
      (!isStr(t.description) && !isStr(t.title)) ||
      !Array.isArray(t.routes)
    )
      throw new Error(`tool bindings: ${where} lacks its method, operation, description, routes or inputSchema`);
    checkMembers(t, where, shared);
    checkDefs(t, where, defs, shared);
  });
  return value as unknown as BindingsFile;
}

/** A JSON array of whole bindings (the earlier form): the same members checked, the schema whole. */
function checkWhole(value: unknown[]): ToolBinding[] {
  value.forEach((t, i) => {
    const name = isObj(t) ? (t.clientMethod ?? t.method) : undefined;
    const where = `[${i}]${isStr(name) ? ` (${JSON.stringify(name)})` : ''}`;
    if (
      !isObj(t) ||
      !isObj(t.inputSchema) ||
      !isStr(name) ||
      !isStr(t.operation) ||
      !isObj(t.names) ||
      (isStr(t.clientMethod) ? !isStr(t.method) || !isStr(t.path) : !isObj(t.http)) ||
      !isStr(t.description) ||
      !Array.isArray(t.routes)
    )
      throw new Error(
        `tool bindings: ${where} lacks its names, method, operation, http, description, routes or inputSchema`,
      );
    checkMembers(t, where, []);
  });
  return (value as (ToolBinding | LegacyToolBinding)[]).map(decodeBinding);
}

/**
 * The bindings of a bindings file's text (`JSON.parse`, so a property named `__proto__` in a spec schema
 * stays an own property). What the generated `handlers/<api>.tools.gen.ts` calls at load.
 */
export function parseToolBindings(text: string): ToolBinding[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`tool bindings: not JSON (${(err as Error).message})`);
  }
  if (Array.isArray(value)) return checkWhole(value);
  const file = checkFile(value);
  return file.tools.map((t) => expand(t, file));
}
