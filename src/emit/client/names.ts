/**
 * Identifier helpers for the client emitter: every name the generated file declares goes through
 * one `NameTable`, so schema types, operation types and runtime imports can never collide.
 */

/** ECMAScript reserved words and TypeScript's predefined type names: illegal as a type alias name. */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'implements interface let package private protected public static yield await ' +
    'any unknown never object string number boolean bigint symbol undefined type keyof infer is asserts readonly ' +
    'unique declare namespace module global require abstract as async constructor from get of set satisfies accessor out'
  ).split(' '),
);

/**
 * Globals the generated code refers to in type positions; a schema named `Blob` or `Promise` would shadow them
 * inside the module and silently change the meaning of other declarations.
 */
export const GLOBAL_NAMES: readonly string[] = ['Blob', 'Promise', 'FormData', 'ArrayBuffer', 'Record', 'Omit', 'Array', 'Date'];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/** A property key as written in an object type: bare when it is a valid identifier name, else a JSON string. */
export function propertyKey(name: string): string {
  // Reserved words are legal property names (ES5 IdentifierName), so only the shape matters here.
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `payments-api.v2` → `PaymentsApiV2`; always a valid identifier (leading digit gets a `_` prefix). */
export function pascalCase(raw: string): string {
  const words = raw.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  if (joined.length === 0) return '_';
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/**
 * Sanitize a schema name into a type identifier while keeping it recognisable:
 * `Pet` stays `Pet`, `pet.Owner-v2` → `pet_Owner_v2`, `2fa` → `_2fa`.
 */
export function typeIdentifier(raw: string): string {
  let name = raw.replace(/[^A-Za-z0-9_$]+/g, '_').replace(/^_+(?=[A-Za-z])/, '');
  if (name.length === 0) name = '_';
  if (/^[0-9]/.test(name)) name = `_${name}`;
  return RESERVED.has(name) ? `${name}_` : name;
}

/** Hands out unique identifiers in call order (deterministic as long as the callers are). */
export class NameTable {
  private readonly used = new Set<string>();

  constructor(reserved: readonly string[] = []) {
    for (const r of reserved) this.used.add(r);
  }

  /** `wanted` if free, else `wanted2`, `wanted3`, … */
  claim(wanted: string): string {
    let name = wanted;
    for (let i = 2; this.used.has(name); i++) name = `${wanted}${i}`;
    this.used.add(name);
    return name;
  }
}
