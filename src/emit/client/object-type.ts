/**
 * Object types the emitter assembles itself (request groups, the client options, error maps) as data: a
 * list of members printed by `writeObjectType`, so no type text is pasted together from strings and `\n`;
 * and `typeAliasStatement`, the `export type X = …;` every alias of the client file is written as.
 */
import { CodeWriter } from './code-writer.js';
import { writeDocLines } from './doc-lines.js';

export interface TypeMember {
  /** A property key as written (spec names go through `propertyKey`, statuses through `tsNumber`). */
  key: string;
  optional?: boolean;
  /** Doc lines, already escaped for a comment. */
  docs?: string[];
  /** Type text built by the emitter, or a writer for one (a schema type). */
  type: string | ((w: CodeWriter) => void);
}

/**
 * `{ a: A; b: B }` on one line with `oneLine` when no member has docs and each type is one line (a member
 * whose type spans lines keeps the block form); else one member per line.
 */
export function writeObjectType(w: CodeWriter, members: readonly TypeMember[], opts: { oneLine?: boolean } = {}): void {
  if (opts.oneLine === true && members.every((m) => (m.docs ?? []).length === 0)) {
    const texts = members.map((m) => {
      if (typeof m.type === 'string') return m.type;
      const scratch = new CodeWriter();
      m.type(scratch);
      return scratch.toString();
    });
    if (texts.every((t) => !t.includes('\n'))) {
      const parts = members.map((m, i) => `${m.key}${m.optional === true ? '?' : ''}: ${texts[i]}`);
      w.write(`{ ${parts.join('; ')} }`);
      return;
    }
  }
  w.write('{').newLine();
  w.indent(() => {
    for (const m of members) {
      writeDocLines(w, m.docs ?? []);
      w.write(`${m.key}${m.optional === true ? '?' : ''}: `);
      if (typeof m.type === 'string') w.write(m.type);
      else m.type(w);
      w.write(';').newLine();
    }
  });
  w.write('}');
}

/**
 * `export type Name = …;` with its JSDoc, written straight into the file's writer (the file puts a blank
 * line before each alias): the type is written once, at the indentation its object members need.
 */
export function typeAliasStatement(
  name: string,
  docLinesOf: string[],
  body: (w: CodeWriter) => void,
): (w: CodeWriter) => void {
  return (w) => {
    writeDocLines(w, docLinesOf);
    w.write(`export type ${name} = `);
    body(w);
    w.write(';').newLine();
  };
}
