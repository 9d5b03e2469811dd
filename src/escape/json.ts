/**
 * JSON output (tool definitions, audit JSON, SARIF). `JSON.stringify` already escapes quotes, backslashes,
 * controls and lone surrogates; LS/PS are escaped as well so the text is also a safe JavaScript literal
 * (pre-ES2019 engines and bundlers that inline JSON read them as line breaks).
 */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  if (text === undefined) throw new TypeError('jsonText: value has no JSON form');
  return text.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
