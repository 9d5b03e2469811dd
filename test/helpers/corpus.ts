import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The shared corpus of real specs and tool lists: `../shared/corpus` next to the repository (where CI has
 * it too), or IDEMGEN_CORPUS. A missing corpus fails the tests that need it — never a silent skip.
 */
export const CORPUS = process.env.IDEMGEN_CORPUS ?? resolve(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');

if (!existsSync(CORPUS)) {
  throw new Error(
    `The shared corpus is missing at ${CORPUS}: check out ../shared next to the repository or set IDEMGEN_CORPUS.`,
  );
}
