import type { SourcePosition } from './types.js';

/**
 * Offset → line/column for one text. Built lazily on first use: most inputs never need a
 * position (no diagnostic), and a 20 MB spec has ~1M lines.
 */
export class LineIndex {
  private starts: Uint32Array | undefined;

  constructor(private readonly text: string) {}

  position(offset: number): SourcePosition {
    const starts = this.lineStarts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo] + 1 };
  }

  /** Counted first, then filled: one exact typed array, not a growing one (GitHub's spec has 347,000 lines). */
  private lineStarts(): Uint32Array {
    if (this.starts) return this.starts;
    const text = this.text;
    let lines = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
    const starts = new Uint32Array(lines);
    let n = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
    this.starts = starts;
    return starts;
  }
}
