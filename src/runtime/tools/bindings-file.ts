/**
 * The bindings file (`handlers/<api>.tools.json`) and its loader. The file holds what cannot be derived:
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
 * else `names`); no `http` when it is the `operation` key (`<METHOD> <path>`); no `description` when it
 * is the `title`; a route as `"<in>:<property>"` when its parameter has the property's name and no style
 * (else an object without `name` when it is the property); an index into `shared` for each input
 * property schema and for `annotations`, `security`, `body`, `carrier` and `keyLimits`; and an input
 * schema without `$defs`: its definitions are the `defs` entries it reaches (`defs` in the binding maps a
 * local name to another entry where two definitions share a name but not their content; `defNames` lists
 * them where reaching would not give exactly the tool's set). The OpenAI strict form is not stored:
 * strict/of-binding.ts derives it. Each tool's self-contained schema is assembled the first time it is
 * read, then kept. A JSON array of whole bindings (the form before this one) loads as it is.
 */
import type { ArgRoute, ToolBinding } from './types.js';

type Obj = Record<string, unknown>;

/** One binding as the file stores it (see the module comment). */
type StoredBinding = Omit<ToolBinding, 'names' | 'http' | 'description' | 'routes' | 'inputSchema' | SharedMember> & {
  name?: string;
  names?: ToolBinding['names'];
  http?: ToolBinding['http'];
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

/** `o[k] = v` as an own data property even when `k` is `__proto__` (the way `JSON.parse` makes them). */
export function setOwn(o: Obj, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** `#/$defs/A~1b` → `A/b` (percent-decoding first), else undefined. */
function defName(ref: string): string | undefined {
  if (!ref.startsWith('#/$defs/')) return undefined;
  let token = ref.slice(8);
  if (token.includes('%')) {
    try {
      token = decodeURIComponent(token);
    } catch {
      // malformed percent-encoding: the text as it is
    }
  }
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Values that are data, not schemas: a `$ref`-shaped string in them refers to nothing. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/** Node → the definition names it refers to itself (not through definitions). Schemas are never edited once built. */
const directRefs = new WeakMap<object, string[]>();

function refsIn(node: object): string[] {
  let refs = directRefs.get(node);
  if (refs === undefined) {
    const found = new Set<string>();
    const visit = (n: unknown): void => {
      if (Array.isArray(n)) {
        for (const item of n) visit(item);
        return;
      }
      if (!isObj(n)) return;
      if (typeof n.$ref === 'string') {
        const name = defName(n.$ref);
        if (name !== undefined) found.add(name);
      }
      for (const key of Object.keys(n)) if (key !== '$defs' && !DATA_KEYWORDS.has(key)) visit(n[key]);
    };
    visit(node);
    refs = [...found];
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
  const seen = new Set<string>();
  const queue = [...refsIn(root)];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const def = lookup(name);
    if (typeof def === 'object' && def !== null) queue.push(...refsIn(def));
  }
  return [...seen].sort();
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
    if (!own(shared, key)) throw new Error(`tool bindings: the definition ${JSON.stringify(key)} is missing`);
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
  const one = name ?? stored.method;
  const space = operation.indexOf(' ');
  const b = {
    names: names ?? { mcp: one, openai: one, anthropic: one },
    operation,
    http: http ?? { method: operation.slice(0, space), path: operation.slice(space + 1) },
    description: description ?? (stored.title as string),
    routes: routes.map(routeOf),
    ...rest,
  } as Omit<ToolBinding, 'inputSchema'> as ToolBinding;
  const members = b as unknown as Record<SharedMember, unknown>;
  for (const m of SHARED_MEMBERS) if (typeof members[m] === 'number') members[m] = sharedAt(file, members[m]);
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

/** Problems with the file's shape (not with a definition's content): a clear message, not a TypeError later. */
function checkFile(value: unknown): BindingsFile {
  if (!isObj(value) || !Array.isArray(value.tools))
    throw new Error('tool bindings: expected {"tools": [...]} (or an array of bindings)');
  for (const t of value.tools)
    if (
      !isObj(t) ||
      !isObj(t.inputSchema) ||
      typeof t.method !== 'string' ||
      typeof t.operation !== 'string' ||
      (t.http === undefined && !t.operation.includes(' ')) ||
      (typeof t.description !== 'string' && typeof t.title !== 'string') ||
      !Array.isArray(t.routes)
    )
      throw new Error('tool bindings: a tool lacks its method, operation, description, routes or inputSchema');
  if (value.shared !== undefined && !Array.isArray(value.shared))
    throw new Error('tool bindings: "shared" is not an array');
  if (value.defs !== undefined && !isObj(value.defs)) throw new Error('tool bindings: "defs" is not an object');
  return value as unknown as BindingsFile;
}

/**
 * The bindings of a bindings file's text (`JSON.parse`, so a property named `__proto__` in a spec schema
 * stays an own property). What the generated `handlers/<api>.tools.gen.ts` calls at load.
 */
export function parseToolBindings(text: string): ToolBinding[] {
  const value: unknown = JSON.parse(text);
  if (Array.isArray(value)) return value as ToolBinding[];
  const file = checkFile(value);
  return file.tools.map((t) => expand(t, file));
}
