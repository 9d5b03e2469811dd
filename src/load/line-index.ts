import type { SourcePosition } from './types.js';

/**
 * Offset → line/column for one text. Built lazily on first use: most inputs never need a
 * position (no diagnostic), and a 20 MB spec has ~1M lines.
 */
export class LineIndex {
  private starts: number[] | undefined;

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

  private lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    const text = this.text;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = starts;
    return starts;
  }
}
