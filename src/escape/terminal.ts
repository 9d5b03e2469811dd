/**
 * Spec text → a terminal (`idemgen audit` text format). An ESC or CSI in a description would be a control
 * sequence (move the cursor, rewrite earlier lines, set the window title); controls and bidi overrides are
 * shown as `\\uXXXX` instead, and line breaks as spaces, so one finding stays one line.
 */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029\u0085]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is what this escaper is for
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/g;

export function terminalText(text: string): string {
  return String(text)
    .replace(LINE_BREAK, ' ')
    .replace(HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
