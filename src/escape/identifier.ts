/**
 * Identifiers the generated code declares (methods, type aliases) from spec names: ASCII only, no leading
 * digit, never a reserved word or a name with a meaning of its own on an object.
 */

/** ECMAScript reserved and strict-mode words: never a binding name. */
const KEYWORDS =
  'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
  'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
  'implements interface let package private protected public static yield await arguments eval';

/** TypeScript's predefined and contextual type names: illegal or misleading as a type alias name. */
const TYPE_WORDS =
  'any unknown never object string number boolean bigint symbol undefined type keyof infer is asserts readonly ' +
  'unique declare namespace module global require abstract as async from get of set satisfies accessor out';

/**
 * Member names with a meaning of their own: `constructor` is the class constructor, `__proto__` the
 * prototype, a `then` method makes the client a thenable that `await client` would call.
 */
const MEMBER_WORDS = 'constructor __proto__ prototype then';

export const RESERVED_IDENTIFIERS: ReadonlySet<string> = new Set(
  `${KEYWORDS} ${TYPE_WORDS} ${MEMBER_WORDS}`.split(' '),
);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when `name` may be declared as-is (binding, method or type alias name). */
export function isSafeIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED_IDENTIFIERS.has(name);
}

/**
 * `raw` made a safe identifier while staying recognisable: accents folded, every other character outside
 * `[A-Za-z0-9_$]` → `_`, a leading digit prefixed with `_`, a reserved word suffixed with `_`.
 */
export function tsIdentifier(raw: string, fallback = '_'): string {
  let name = String(raw)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_$]/g, '_');
  if (name === '') name = fallback;
  if (/^[0-9]/.test(name)) name = `_${name}`;
  return RESERVED_IDENTIFIERS.has(name) ? `${name}_` : name;
}
