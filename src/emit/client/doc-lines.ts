/** JSDoc blocks; spec text reaches them only through `docLines`/`docInline` (src/escape/comment.ts). */
import type { CodeWriter } from './code-writer.js';
import { docLines } from '../../escape/index.js';

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSDoc block from `description`/`deprecated`; `*\/` inside text would end the comment early. */
export function writeDoc(w: CodeWriter, schema: unknown): void {
  if (!isObj(schema)) return;
  const lines: string[] = [];
  const description = schema.description;
  if (typeof description === 'string' && description.trim() !== '') lines.push(...docLines(description));
  if (schema.deprecated === true) lines.push('@deprecated');
  writeDocLines(w, lines);
}

export { docInline, docLines } from '../../escape/index.js';

/** Lines are already escaped; `*\/` is re-checked so a line built by mistake from raw text still cannot end the block. */
export function writeDocLines(w: CodeWriter, lines: string[]): void {
  if (lines.length === 0) return;
  lines = lines.map((l) => l.replace(/\*\//g, '*\\/'));
  if (lines.length === 1) {
    w.write(`/** ${lines[0]} */`).newLine();
    return;
  }
  w.write('/**').newLine();
  for (const l of lines) w.write(l === '' ? ' *' : ` * ${l}`).newLine();
  w.write(' */').newLine();
}
