/**
 * The text builder the client emitter writes into: `write`/`writeLine`/`newLine`/`indent(block)` with the
 * layout rules of code-block-writer (which ts-morph used to give us), minus its per-character scan for
 * strings, comments and regexes. That scan only decides whether a line inside an unterminated string gets
 * indentation; every string we write is a complete escaped literal, so a line start is simply the last char
 * being a newline. Writes are kept in small arrays joined into chunks now and then, so a Graph-sized client
 * (18 MB) is never held as millions of tiny strings; given an `out`, each chunk goes there as it is made and
 * the writer holds none (the CLI streams the client to disk, `end()` sends the last one).
 */
const NL = 10;
const CR = 13;
const SPACE = 32;
/** Small writes are joined into one chunk after this many; keeps the live array short. */
const PARTS_PER_CHUNK = 4096;

export class CodeWriter {
  #chunks: string[] = [];
  #parts: string[] = [];
  /** Char code of the last character written; -1 while nothing is written. */
  #last = -1;
  #level = 0;
  #indents = ['', '  '];
  /** `indent(block)` ended mid-line: the next write starts a new line first. */
  #pending = false;

  /** `out`: where each joined chunk goes (then `toString` has nothing to give; call `end`). */
  readonly #out: ((chunk: string) => void) | undefined;

  constructor(out?: (chunk: string) => void) {
    this.#out = out;
  }

  /** Writes `text`; each line it starts is indented to the current level. */
  write(text: string): this {
    if (this.#pending) this.newLine();
    this.#text(text);
    return this;
  }

  /** `text` on a line of its own (a newline first unless at a line start) and a newline after it. */
  writeLine(text: string): this {
    if (this.#pending) this.newLine();
    if (this.#last !== -1 && !this.isLastNewLine()) this.#newline();
    this.#text(text);
    this.#newline();
    return this;
  }

  newLine(): this {
    this.#pending = false;
    this.#newline();
    return this;
  }

  /** `block` one level deeper, starting on a new line; the next write after it starts a new line too. */
  indent(block: () => void): this {
    if (this.#last !== -1) this.newLineIfLastNot();
    this.#level++;
    if (this.#indents.length <= this.#level) this.#indents.push('  '.repeat(this.#level));
    block();
    this.#level--;
    if (!this.isLastNewLine()) this.#pending = true;
    return this;
  }

  newLineIfLastNot(): this {
    if (this.#pending) this.newLine();
    if (!this.isLastNewLine()) this.newLine();
    return this;
  }

  /** Ends the current line and leaves one empty line (only one, however many lines ended before). */
  blankLine(): this {
    return this.newLineIfLastNot().newLine();
  }

  spaceIfLastNot(): this {
    if (this.#pending) this.newLine();
    if (this.#last !== SPACE) this.#text(' ');
    return this;
  }

  isLastNewLine(): boolean {
    return this.#last === NL || this.#last === CR;
  }

  /** Sends what is still held to `out` (a writer without `out` keeps it for `toString`). */
  end(): void {
    if (this.#parts.length > 0) this.#flush();
  }

  toString(): string {
    if (this.#parts.length > 0) this.#flush();
    if (this.#chunks.length > 1) this.#chunks = [this.#chunks.join('')];
    return this.#chunks[0] ?? '';
  }

  #text(text: string): void {
    if (text.indexOf('\n') === -1) {
      this.#piece(text);
      return;
    }
    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) this.#newline();
      if (lines[i]!.length > 0) this.#piece(lines[i]!);
    }
  }

  /** One piece without newlines; at a line start it is indented first (an empty piece writes only that). */
  #piece(s: string): void {
    if ((this.#last === -1 || this.#last === NL || this.#last === CR) && this.#level > 0)
      this.#push(this.#indents[this.#level]!);
    if (s.length > 0) this.#push(s);
  }

  #newline(): void {
    this.#push('\n');
  }

  #push(s: string): void {
    this.#parts.push(s);
    this.#last = s.charCodeAt(s.length - 1);
    if (this.#parts.length >= PARTS_PER_CHUNK) this.#flush();
  }

  #flush(): void {
    const chunk = this.#parts.join('');
    if (this.#out !== undefined) this.#out(chunk);
    else this.#chunks.push(chunk);
    this.#parts = [];
  }
}
