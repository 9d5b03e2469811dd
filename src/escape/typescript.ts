/**
 * Spec text → TypeScript source text. Each function is the only way text from an input reaches one
 * syntactic context of a generated module (docs/decisions/0055-escape-at-the-sink-by-context-in-one-module.md).
 */
import { escapeStringifiedJson, hex4, INVISIBLE } from './json.js';

/**
 * A double-quoted string literal: JSON already escapes quotes, backslashes, C0 controls and lone surrogates;
 * the invisible code points (bidi controls — "Trojan Source", CVE-2021-42574 — DEL, C1, LS/PS) are escaped
 * as in JSON output (json.ts `INVISIBLE`).
 */
export function tsString(text: string): string {
  return escapeStringifiedJson(JSON.stringify(String(text)));
}

/**
 * What `tsTemplateText` escapes: `\`, the backtick and `$` with a backslash; controls and the invisible code
 * points (json.ts `INVISIBLE`) as `\uXXXX`. One class, so the text is scanned once (the bindings of a
 * Graph-sized API are 10 MB of it).
 */
const TEMPLATE_UNSAFE = new RegExp(`[\\\\\`$\\u0000-\\u001f${INVISIBLE.source.slice(1, -1)}]`, 'g');

/**
 * Text between the backticks of a template literal: `\`, the backtick and EVERY `$` are escaped, so no
 * `${` can form however the text is cut into pieces; CR would be read as LF, so controls are escaped too.
 */
export function tsTemplateText(text: string): string {
  return String(text).replace(TEMPLATE_UNSAFE, (c) => (c === '\\' || c === '`' || c === '$' ? `\\${c}` : hex4(c)));
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
