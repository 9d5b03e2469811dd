/**
 * Which of a tool schema's own definitions (`#/$defs/…`) a node refers to: the one walk the generator's
 * budget, the strict converter's pruning and the bindings loader share, so they agree on what counts.
 */
import { defsRefName } from './strict/pointer.js';

/** Keywords whose values are data, not schemas: a `$ref` member inside them refers to nothing. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);
/** Keywords whose members are named schemas: a member named `default` (or `$defs`) there is a schema, not data. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', 'dependentSchemas']);

/**
 * The definition names `node` refers to itself, in the order first met (depth first, members in key order).
 * Not through the definitions it names, and not inside a nested `$defs` or a data keyword (a property of that
 * name under `properties` is a schema and is walked).
 */
export function ownDefRefs(node: unknown): string[] {
  const found = new Set<string>();
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) {
      for (const item of n) visit(item);
      return;
    }
    if (typeof n !== 'object' || n === null) return;
    const o = n as Record<string, unknown>;
    if (typeof o.$ref === 'string') {
      const name = defsRefName(o.$ref);
      if (name !== undefined) found.add(name);
    }
    for (const key in o) {
      if (key === '$defs' || DATA_KEYWORDS.has(key) || !Object.hasOwn(o, key)) continue;
      const v = o[key];
      if (NAMED_SCHEMAS.has(key) && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        const members = v as Record<string, unknown>;
        for (const name in members) if (Object.hasOwn(members, name)) visit(members[name]);
      } else visit(v);
    }
  };
  visit(node);
  return [...found];
}

/**
 * The definition names reachable from `root` through the definitions `lookup` gives (a name it does not
 * know is still listed). `refsOf` is `ownDefRefs` or a memo of it where schemas are never edited.
 */
export function reachableDefs(
  root: unknown,
  lookup: (name: string) => unknown,
  refsOf: (node: object) => readonly string[] = ownDefRefs,
): Set<string> {
  const seen = new Set<string>();
  const queue = typeof root === 'object' && root !== null ? [...refsOf(root)] : [];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const def = lookup(name);
    if (typeof def === 'object' && def !== null) queue.push(...refsOf(def));
  }
  return seen;
}
