import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkSpecSample } from '../emit/client/helpers/spec-sample-check.js';
import { CORPUS as CORPUS_ROOT } from '../helpers/corpus.js';

const CORPUS = `${CORPUS_ROOT}/openapi`;

describe('generated clients compile under tsc --strict --noUnusedLocals', () => {
  it('for every spec of the shared corpus', { timeout: 600_000 }, async () => {
    const specs = readdirSync(CORPUS)
      .filter((n) => n !== 'MANIFEST.tsv' && n !== 'oai-v3.1-webhook-example.yaml')
      .sort();
    const outcomes = await checkSpecSample(specs, CORPUS, 'corpus', 6);
    const bad = outcomes.filter((o) => o.status !== 'compiled');
    expect(bad).toEqual([]);
    expect(outcomes).toHaveLength(specs.length);
  });
});
