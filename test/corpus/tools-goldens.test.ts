/**
 * Golden files for every real tool list in ../shared/corpus/tools (`npm run test:corpus`), run through the
 * real pipeline. Every emitted schema compiles with Ajv 2020, every OpenAI tool passes the strict-mode
 * checker and every write requires its key. The goldens stay under test/emit/tools/__snapshots__.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS as CORPUS_ROOT } from '../helpers/corpus.js';
import { emitToolsFor, expectSafeTools } from '../emit/tools/tool-checks.js';

const CORPUS = join(CORPUS_ROOT, 'tools');
const corpusFiles = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.tools.json'))
  .sort();

describe.each(corpusFiles)('corpus tools %s', (file) => {
  it('matches the golden files', async () => {
    const { files } = await emitToolsFor(join(CORPUS, file));
    expect(files.length).toBe(6);
    for (const f of files)
      await expect(f.contents).toMatchFileSnapshot(
        `../emit/tools/__snapshots__/${file.replace(/\.tools\.json$/, '')}/${f.path}`,
      );
  });

  it('emits schemas Ajv 2020 compiles, strict-valid OpenAI tools, and a required key on every write', async () => {
    const { files, plan } = await emitToolsFor(join(CORPUS, file), true);
    expectSafeTools(files, plan);
  });
});
