/**
 * Spec text → the HTML audit report. Text goes into element content or a quoted attribute through
 * `htmlText` (the five characters that can end either become references); data goes into an inline
 * `<script type="application/json">` through `scriptJson`, where no entity is decoded, so `<`, `>` and `&`
 * become JSON escapes instead: no `</script>` or `<!--` can close or hide the element, and parsed back the
 * data is the same.
 */
import { escapeStringifiedJson } from './json.js';

const HTML_SPECIAL: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function htmlText(text: string): string {
  return String(text).replace(/[&<>"']/g, (c) => HTML_SPECIAL[c]!);
}

/** JSON for an inline `<script>` element (also a valid JavaScript literal: LS/PS escaped by `jsonText`). */
export function scriptJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('scriptJson: value has no JSON form');
  return escapeStringifiedJson(text).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
