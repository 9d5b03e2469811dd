/**
 * Types that several operations write alike, each written once as an alias the request types name: long
 * parameter types (Graph's `$select`/`$orderby`/`$expand` enums, 9,190 lines of which 967 differ), named
 * after the first operation and parameter that use them, path-parameter groups (`UserIdPath` for
 * `{ "user-id": string }`, with the parameters' docs) and errors-map entries (`ErrorBodies`). A type used
 * once, or short, stays inline.
 */
import type { CodeWriter } from './code-writer.js';
import type { NameTable } from './names.js';
import type { WriterFunction } from './structures.js';
import { typeAliasStatement } from './object-type.js';

/** Shorter parameter types stay inline: an alias and its name would save little. */
const MIN_LENGTH = 100;

interface Use {
  count: number;
  wanted: string;
  name?: string;
}

export class SharedTypes {
  readonly #uses = new Map<string, Use>();

  /**
   * Counts one use of `text` (type text at indentation level 0); the writer prints the alias name once one is
   * given. A text too short to share is handed back as it is (members keep it to the file's end: a string
   * costs no function and context).
   */
  use(text: string, wanted: string, minLength = MIN_LENGTH): string | ((w: CodeWriter) => void) {
    if (text.length < minLength) return text;
    let u = this.#uses.get(text);
    if (u === undefined) {
      u = { count: 0, wanted };
      this.#uses.set(text, u);
    }
    u.count++;
    const use = u;
    return (w) => w.write(use.name ?? text);
  }

  /** After every operation is built: names each text used twice or more, in first-use order; its alias statements. */
  aliases(names: NameTable): WriterFunction[] {
    const out: WriterFunction[] = [];
    for (const [text, u] of this.#uses) {
      if (u.count < 2) continue;
      u.name = names.claim(u.wanted);
      out.push(typeAliasStatement(u.name, [], (w) => w.write(text)));
    }
    return out;
  }
}
