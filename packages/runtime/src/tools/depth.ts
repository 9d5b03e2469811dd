/**
 * How deep tool arguments may nest. Checked before anything else reads them: decoding, validation,
 * canonical hashing and routing all walk the arguments recursively, and a value nested thousands deep
 * would end one of them with "Maximum call stack size exceeded" after the call had started — reported as
 * an unknown outcome although nothing was sent. No API schema needs more than a few dozen levels.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/** The JSON pointer of the first value nested deeper than `max` (root = depth 0), else undefined. Iterative. */
export function tooDeep(value: unknown, max = MAX_ARGUMENT_DEPTH): string | undefined {
  const stack: [unknown, number, string][] = [[value, 0, '']];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth, pointer] = next;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return pointer;
    for (const [k, child] of Object.entries(v))
      stack.push([child, depth + 1, `${pointer}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`]);
  }
  return undefined;
}
