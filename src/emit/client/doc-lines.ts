/** JSDoc text from spec descriptions; the text is untrusted, so `*\/` is escaped. */
import type { CodeBlockWriter } from 'ts-morph';

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSDoc block from `description`/`deprecated`; `*\/` inside text would end the comment early. */
export function writeDoc(w: CodeBlockWriter, schema: unknown): void {
  if (!isObj(schema)) return;
  const lines: string[] = [];
  const description = schema['description'];
  if (typeof description === 'string' && description.trim() !== '') lines.push(...docLines(description));
  if (schema['deprecated'] === true) lines.push('@deprecated');
  writeDocLines(w, lines);
}

export function docLines(text: string): string[] {
  return text
    .replace(/\*\//g, '*\\/')
    .split(/\r?\n|\r|\u2028|\u2029/)
    .map((l) => l.trimEnd());
}

export function writeDocLines(w: CodeBlockWriter, lines: string[]): void {
  if (lines.length === 0) return;
  if (lines.length === 1) {
    w.write(`/** ${lines[0]} */`).newLine();
    return;
  }
  w.write('/**').newLine();
  for (const l of lines) w.write(l === '' ? ' *' : ` * ${l}`).newLine();
  w.write(' */').newLine();
}
