import { jsonText } from '../../escape/index.js';
import type { FileWriter } from '../types.js';

/** Deterministic JSON for emitted files: 2-space indent, LF, trailing newline (STYLE habit 7). */
export function renderJson(value: unknown): string {
  return `${jsonText(value, 2)}\n`;
}

/**
 * A JSON array written item by item into `out`, byte-identical to `before + renderJson(array) + after`
 * with the array placed at nesting `level` (2 spaces each): each item is serialized and handed over at
 * once, so only one item's text is alive at a time.
 */
export class JsonArrayWriter {
  private readonly pad: string;
  private count = 0;

  constructor(
    private readonly out: FileWriter,
    level: number,
    private readonly before: string,
    private readonly after: string,
  ) {
    this.pad = '  '.repeat(level);
  }

  push(item: unknown): void {
    // JSON text has no raw newlines inside strings, so re-indenting line starts is exact.
    const text = this.pad + jsonText(item, 2).replace(/\n/g, `\n${this.pad}`);
    this.out.write(this.count === 0 ? `${this.before}[\n${text}` : `,\n${text}`);
    this.count += 1;
  }

  /** Closes the array and the file. */
  finish(): void {
    this.out.write(this.count === 0 ? `${this.before}[]${this.after}` : `\n${this.pad.slice(2)}]${this.after}`);
    this.out.end();
  }
}
