/**
 * JSON output (tool definitions, audit JSON, SARIF). `JSON.stringify` already escapes quotes, backslashes,
 * controls and lone surrogates; LS/PS are escaped as well so the text is also a safe JavaScript literal
 * (pre-ES2019 engines and bundlers that inline JSON read them as line breaks), and DEL, C1 and bidi controls so a
 * reviewer reading the file sees what a model will read. Parsed back, the text is the same.
 */
/** Also the set `tsString` and `tsTemplateText` escape (typescript.ts): one list of invisible code points. */
export const INVISIBLE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufeff]/g;

export const hex4 = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * The escapes above applied to text `JSON.stringify` produced — never to raw text: quotes, backslashes and
 * controls are JSON.stringify's job. Whole or in pieces: each character is escaped
 * on its own, so pieces escaped apart join to the text escaped whole). ASCII-only text — where UTF-8 takes one
 * byte per character — can only hold DEL of that set, and checking for it is far cheaper than the regex scan
 * over the hundreds of megabytes a Graph-sized run writes.
 */
export function escapeStringifiedJson(text: string): string {
  if (Buffer.byteLength(text) === text.length && !text.includes('\u007f')) return text;
  return text.replace(INVISIBLE, hex4);
}

export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  if (text === undefined) throw new TypeError('jsonText: value has no JSON form');
  return escapeStringifiedJson(text);
}
