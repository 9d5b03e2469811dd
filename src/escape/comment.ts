/**
 * Spec text → comment text. Nothing inside a comment runs, so the only ways out are ending it early (`*\/`
 * in a block, a line terminator in a line comment) and making the reader see something else: a JSDoc tag
 * (`@deprecated`, `@see`) that TypeScript honours, or bidi controls that reorder the code around them.
 */

/** Every line terminator ECMAScript knows (LF, CR, LS, PS), plus NEL which editors also break on. */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029\u0085]/;

/** C0/C1 controls (tab aside) and bidi/invisible format characters, shown as `\uXXXX` text instead. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is what this escaper is for
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/g;

const shown = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Anything `commentLine` rewrites; most lines hold none, and one test is cheaper than three replaces. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same characters as HIDDEN
const REWRITTEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff@]|\*\//;

function commentLine(line: string): string {
  if (!REWRITTEN.test(line)) return line.trimEnd();
  return (
    line
      .replace(HIDDEN, shown)
      .replace(/\*\//g, '*\\/')
      // TypeScript starts a JSDoc tag at an `@` after whitespace anywhere in a line, and an inline tag at `{@`
      // (`{@link …}`); `\@` is TSDoc's escape.
      .replace(/(^|\s|\{)@/g, '$1\\@')
      .trimEnd()
  );
}

/** Lines of a JSDoc or block comment body (without ` * `), one per source line of `text`. */
export function docLines(text: string): string[] {
  return String(text).split(LINE_BREAK).map(commentLine);
}

/** One line of JSDoc text: line breaks become spaces (for values interpolated into our own sentences). */
export function docInline(text: string): string {
  return commentLine(String(text).split(LINE_BREAK).join(' '));
}

/** Text after `//`: one line, whatever the input held. */
export function lineComment(text: string): string {
  return String(text).split(LINE_BREAK).join(' ').replace(HIDDEN, shown).trimEnd();
}
