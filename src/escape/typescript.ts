/**
 * Spec text → TypeScript source text. Each function is the only way text from an input reaches one
 * syntactic context of a generated module (docs/decisions.md "Spec text in generated output").
 */

/**
 * Code points that change how source reads without changing what it does: bidi embeddings, overrides and
 * isolates (CVE-2021-42574, "Trojan Source"), DEL and C1 controls, plus the line separators that some tools
 * treat as newlines.
 */
const INVISIBLE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufeff]/g;

const hex4 = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A double-quoted string literal. JSON already escapes quotes, backslashes, C0 controls and lone surrogates. */
export function tsString(text: string): string {
  const literal = JSON.stringify(String(text));
  // ASCII-only (one UTF-8 byte per character): DEL is the only invisible code point it can hold.
  if (Buffer.byteLength(literal) === literal.length && !literal.includes('\u007f')) return literal;
  return literal.replace(INVISIBLE, hex4);
}

/**
 * Text between the backticks of a template literal: `\`, the backtick and EVERY `$` are escaped, so no
 * `${` can form however the text is cut into pieces; CR would be read as LF, so controls are escaped too.
 */
export function tsTemplateText(text: string): string {
  return (
    String(text)
      .replace(/[\\`$]/g, (c) => `\\${c}`)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is what this escaper is for
      .replace(/[\u0000-\u001f\u007f]/g, hex4)
      .replace(INVISIBLE, hex4)
  );
}

/** A numeric literal; anything but a number is a bug upstream (a spec string must never land here). */
export function tsNumber(value: number): string {
  if (typeof value !== 'number') throw new TypeError(`tsNumber: not a number: ${typeof value}`);
  return Number.isFinite(value) ? String(value) : Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
}

const IDENTIFIER_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** ASCII identifier shape (IdentifierName): legal after a dot and as a bare property key, reserved words included. */
function isIdentifierName(name: string): boolean {
  return IDENTIFIER_NAME.test(name);
}

/**
 * A key in an object TYPE literal: bare when it is an identifier name, else a string literal. In a type,
 * `__proto__` and `constructor` are ordinary member names.
 */
export function tsPropertyKey(name: string): string {
  return isIdentifierName(name) ? name : tsString(name);
}

/**
 * A key in an object literal EXPRESSION. `__proto__: v` and `"__proto__": v` set the prototype instead of
 * a property (ECMA-262 B.3.1), so that name is written as a computed key.
 */
export function tsObjectKey(name: string): string {
  if (name === '__proto__') return `[${tsString(name)}]`;
  return tsPropertyKey(name);
}

/** `obj.name` or `obj["na-me"]`; a read of `__proto__` is harmless with an own property, so only shape matters. */
export function tsMember(obj: string, name: string): string {
  return isIdentifierName(name) ? `${obj}.${name}` : `${obj}[${tsString(name)}]`;
}
