/**
 * "Did you mean …?" for a misspelled name: a command, an option, a config key. The candidates are what the
 * caller itself knows (the command names, the options a command's own `--help` lists, a config section's
 * keys), so a suggestion can never name something that does not exist.
 */

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest candidate, if it is close enough to be what was meant: at most 2 edits (1 for words of up to 4
 * letters), or a candidate of 3+ letters that the word starts with (`--outdir` → `--out`). Ties go to the
 * earlier candidate.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const c of candidates) {
    // The distance is at least the difference in length: a candidate longer or shorter by more than the
    // limit cannot be the answer (thousands of operation names are cheap to pass over).
    if (Math.abs(c.length - w.length) > 2) continue;
    const distance = editDistance(w, c.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name: c, distance };
  }
  const limit = w.length <= 4 ? 1 : 2;
  if (best !== undefined && best.distance <= limit) return best.name;
  return candidates.find((c) => c.length >= 3 && w.startsWith(c.toLowerCase()) && c !== w);
}
