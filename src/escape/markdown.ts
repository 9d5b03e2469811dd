/**
 * Spec text → Markdown (the audit report). Descriptions and names are text, never markup: `<` and `&`
 * become entities so no HTML tag or comment can open; the characters that start emphasis, code, links,
 * images, strikethrough or a table cell are backslash-escaped (CommonMark §2.4: any ASCII punctuation may
 * be); line breaks become spaces, so nothing can start a block (heading, list, quote, fence) either.
 */

const LINE_BREAK = /\r\n|[\n\r\u2028\u2029\u0085]/g;
const WORD = /[\p{L}\p{N}]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is what this escaper is for
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/g;

/** Inline text, safe in a paragraph, a heading or a table cell. */
export function mdText(text: string): string {
  return (
    String(text)
      .replace(LINE_BREAK, ' ')
      .replace(HIDDEN, '\ufffd')
      .replace(/[\\`*[\]|~!#]/g, (c) => `\\${c}`)
      // An `_` between two letters or digits can neither open nor close emphasis (CommonMark §6.2), so
      // `idempotency_key` stays readable in the raw file; any other `_` is escaped.
      .replace(/_/g, (c, at: number, s: string) =>
        WORD.test(s.charAt(at - 1)) && WORD.test(s.charAt(at + 1)) ? c : '\\_',
      )
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  );
}

/**
 * An inline code span (`` `x` ``) inside a table cell. Code spans show their content literally (no HTML,
 * no entities), so only the backtick (it would close the span) and the pipe (GFM splits cells before inline
 * parsing, code spans included) need care.
 */
export function mdCode(text: string): string {
  const body = String(text).replace(LINE_BREAK, ' ').replace(HIDDEN, '\ufffd').replace(/`/g, "'").replace(/\|/g, '\\|');
  return `\`${body}\``;
}
