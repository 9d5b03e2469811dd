/** Deterministic JSON for emitted files: 2-space indent, LF, trailing newline (STYLE habit 7). */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A copy of `obj` with keys in sorted order, for maps whose order carries no meaning. */
export function sortKeys<T>(obj: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(obj).sort()) out[key] = obj[key];
  return out;
}

/**
 * A JSON array rendered item by item, byte-identical to `renderJson` of the whole array placed at
 * nesting `level` (2 spaces each): items are serialized as they come and only their text is kept.
 */
export class JsonArrayWriter {
  private readonly chunks: string[] = [];
  private readonly pad: string;

  constructor(level: number) {
    this.pad = '  '.repeat(level);
  }

  push(item: unknown): void {
    // JSON text has no raw newlines inside strings, so re-indenting line starts is exact.
    this.chunks.push(this.pad + JSON.stringify(item, null, 2).replace(/\n/g, `\n${this.pad}`));
  }

  /** The array between `before` and `after`; the writer is empty afterwards. */
  finish(before: string, after: string): string {
    const outer = this.pad.slice(2);
    const body = this.chunks.length === 0 ? '[]' : `[\n${this.chunks.join(',\n')}\n${outer}]`;
    this.chunks.length = 0;
    return before + body + after;
  }
}
