/**
 * Regular expressions compiled to machine code before their first real use.
 *
 * V8 runs a pattern's first execution in its bytecode interpreter and compiles it to machine code for the
 * second, except on a subject of 1,000 characters or more, for which it compiles at once. A table of long
 * alternations that a run tests against many texts pays for the bytecode and the interpreted pass on top of
 * the compilation: for the key-description statements that was half of reading Stripe's first 84 descriptions
 * (55 → 26 ms, decision 0229). Running each pattern once on a long blank subject makes V8 compile it at once.
 * On an engine that does not tier up this way the run only costs a scan of a blank string.
 */
const LONG_BLANK = ' '.repeat(1000);

/**
 * A function that compiles `patterns` the first time it is called and does nothing afterwards: call it where
 * the patterns are about to run, so that a process that never needs them never compiles them.
 */
export function compileOnFirstUse(patterns: readonly RegExp[]): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (const re of patterns) {
      const at = re.lastIndex;
      re.test(LONG_BLANK);
      re.lastIndex = at;
    }
  };
}
