/**
 * Safe, stable TypeScript identifiers for operations: camelCased operationIds, names synthesized
 * from method + path when there is none, reserved words and leading digits made safe.
 */

// ECMAScript reserved words, strict-mode and TypeScript contextual keywords that cannot be a
// binding name; `delete_` is clearer in generated code than a renamed `remove`.
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'implements',
  'interface',
  'let',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'yield',
  'await',
  'arguments',
  'eval',
  'undefined',
  'NaN',
  'Infinity',
  'any',
  'boolean',
  'number',
  'string',
  'symbol',
  'never',
  'unknown',
  'object',
  'type',
  'constructor',
  'prototype',
  // A `then` method makes the generated client a thenable (`await client` would call it); `__proto__` is the prototype.
  'then',
  '__proto__',
]);

const NON_ASCII = /[\u0080-\uffff]/;

/** Words of a free-form string: ASCII-folded, split on punctuation and on case changes. */
function splitWords(input: string): string[] {
  // NFKD folding only changes non-ASCII text; most names are ASCII already.
  const ascii = NON_ASCII.test(input) ? input.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : input;
  return ascii
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** camelCase of the words of `input`; '' when nothing usable remains (e.g. only CJK or emoji). */
export function camelCase(input: string): string {
  const words = splitWords(input);
  if (words.length === 0) return '';
  return words[0].toLowerCase() + words.slice(1).map(capitalize).join('');
}

/** A leading digit or a reserved word cannot start/be a binding name. */
export function makeSafeIdentifier(name: string, fallback = 'operation'): string {
  let id = name.replace(/[^A-Za-z0-9_$]/g, '_');
  if (id === '') id = fallback;
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED_WORDS.has(id)) id += '_';
  return id;
}

/**
 * `POST /v1/charges` → `postV1Charges`; `GET /pets/{id}` → `getPetsById`;
 * `GET /` → `getRoot`. Templated segments become `By<Name>`.
 */
export function synthesizeOperationName(method: string, path: string): string {
  const parts: string[] = [method.toLowerCase()];
  for (const segment of path.split('/')) {
    if (segment === '') continue;
    const pieces = segment.split(/(\{[^}]*\})/).filter((p) => p !== '');
    for (const piece of pieces) {
      const param = /^\{([^}]*)\}$/.exec(piece);
      const words = splitWords(param ? param[1] : piece);
      if (words.length === 0) continue;
      parts.push(...(param ? ['By', ...words] : words));
    }
  }
  if (parts.length === 1) parts.push('root');
  return makeSafeIdentifier(parts[0] + parts.slice(1).map(capitalize).join(''));
}

/**
 * The identifier for an HTTP operation: its camelCased operationId, else a synthesized one. `camel`: the
 * operationId's camelCase when the caller already has it.
 */
export function operationBaseName(
  method: string,
  path: string,
  operationId: string | undefined,
  camel = operationId === undefined ? '' : camelCase(operationId),
): string {
  return camel !== '' ? makeSafeIdentifier(camel) : synthesizeOperationName(method, path);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Who wins a name on collision (lower first): 0 an operationId used verbatim (`makePromise`),
 * 1 a valid-identifier operationId only re-cased (`PostCharges` → `postCharges`), 2 a sanitized
 * operationId (`make-promise`), 3 a name synthesized from method + path. An author who wrote an
 * identifier meant it; the names we made up yield.
 */
export function operationNameRank(
  operationId: string | undefined,
  base: string,
  camel = operationId === undefined ? '' : camelCase(operationId),
): number {
  if (operationId === undefined || camel === '') return 3;
  if (!IDENTIFIER.test(operationId) || RESERVED_WORDS.has(operationId)) return 2;
  return base === operationId ? 0 : 1;
}

/** A tool name kept recognisable (`send_email` stays), only made a valid identifier. */
export function toolBaseName(toolName: string): string {
  const ascii = toolName.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return makeSafeIdentifier(ascii.replace(/[^A-Za-z0-9_$]+/g, '_').replace(/^_+(?=.)|(?<=.)_+$/g, ''), 'tool');
}

export interface NameItem {
  key: string;
  base: string;
  /** Lower ranks claim their base name first (see `operationNameRank`); default 0. */
  rank?: number;
}

/** An item that did not get its base name: who holds it and what it got instead. */
export interface NameCollision {
  key: string;
  base: string;
  name: string;
  heldBy: string;
}

function byRankThenKey(a: NameItem, b: NameItem): number {
  const r = (a.rank ?? 0) - (b.rank ?? 0);
  return r !== 0 ? r : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/**
 * Unique names in (rank, key) order: the first holder of a name keeps it, later ones get `2`, `3`, …
 * (skipping names any item claims as its base), so the result does not depend on input order.
 */
export function assignNamesWithCollisions(items: readonly NameItem[]): {
  names: Map<string, string>;
  collisions: NameCollision[];
} {
  const sorted = [...items].sort(byRankThenKey);
  const holder = new Map<string, string>();
  const claimed = new Set(sorted.map((i) => i.base));
  const names = new Map<string, string>();
  const collisions: NameCollision[] = [];
  for (const { key, base } of sorted) {
    let name = base;
    if (holder.has(name)) {
      let n = 2;
      while (holder.has(`${base}${n}`) || claimed.has(`${base}${n}`)) n++;
      name = `${base}${n}`;
      collisions.push({ key, base, name, heldBy: holder.get(base)! });
    }
    holder.set(name, key);
    names.set(key, name);
  }
  return { names, collisions };
}

export function assignUniqueNames(items: readonly NameItem[]): Map<string, string> {
  return assignNamesWithCollisions(items).names;
}
