/**
 * JSON output (tool definitions, audit JSON, SARIF). `JSON.stringify` already escapes quotes, backslashes,
 * controls and lone surrogates; LS/PS are escaped as well so the text is also a safe JavaScript literal
 * (pre-ES2019 engines and bundlers that inline JSON read them as line breaks), and DEL, C1 and bidi controls so a
 * reviewer reading the file sees what a model will read. Parsed back, the text is the same.
 */
const ESCAPED = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufeff]/g;

export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  if (text === undefined) throw new TypeError('jsonText: value has no JSON form');
  return text.replace(ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
