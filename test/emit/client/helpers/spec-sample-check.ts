/** Generate clients for many specs and type-check them in batches (one tsc Program per batch). */
import { emitClient } from '../../../../src/emit/client/index.js';
import { typeCheck, writeBatch } from './compile.js';
import { loadApis, planApis } from './spec-plan.js';

export interface CorpusOutcome {
  spec: string;
  status: 'compiled' | 'compile-error' | 'crash' | 'no-client' | 'load-error';
  detail?: string;
}

async function generate(spec: string, cwd: string): Promise<{ outcome?: CorpusOutcome; files?: [string, string][] }> {
  try {
    const { apis, errors } = await loadApis([spec], cwd);
    if (apis.length === 0) return { outcome: { spec, status: 'load-error', detail: errors.join('; ') } };
    const { files } = emitClient({ apis: planApis(apis), diagnostics: [] }, {} as never);
    if (files.length === 0) return { outcome: { spec, status: 'no-client' } };
    return { files: files.map((f, i) => [`s${i}-${spec.replace(/[^A-Za-z0-9.]+/g, '_')}.gen.ts`, f.contents]) };
  } catch (err) {
    return {
      outcome: { spec, status: 'crash', detail: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) },
    };
  }
}

export async function checkSpecSample(
  specs: string[],
  cwd: string,
  dir: string,
  batchSize = 40,
): Promise<CorpusOutcome[]> {
  const outcomes: CorpusOutcome[] = [];
  for (let i = 0; i < specs.length; i += batchSize) {
    const batch = new Map<string, string>();
    const owner = new Map<string, string>();
    for (const spec of specs.slice(i, i + batchSize)) {
      const g = await generate(spec, cwd);
      if (g.outcome) outcomes.push(g.outcome);
      for (const [name, text] of g.files ?? []) {
        batch.set(name, text);
        owner.set(name, spec);
      }
    }
    if (batch.size === 0) continue;
    const result = typeCheck(writeBatch(`${dir}/batch-${i / batchSize}`, batch));
    const errs = new Map<string, string[]>();
    for (const [name, list] of result) errs.set(owner.get(name)!, [...(errs.get(owner.get(name)!) ?? []), ...list]);
    for (const [spec, list] of errs) {
      outcomes.push(
        list.length === 0
          ? { spec, status: 'compiled' }
          : { spec, status: 'compile-error', detail: list.slice(0, 5).join('\n') },
      );
    }
  }
  return outcomes;
}
