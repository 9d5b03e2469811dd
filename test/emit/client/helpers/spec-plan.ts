/** Load specs with the real loader and IR, and plan them with the real classifier. */
import { loadInputs } from '../../../../src/load/index.js';
import { buildApiModel } from '../../../../src/ir/index.js';
import type { ApiModel } from '../../../../src/ir/types.js';
import type { ApiPlan } from '../../../../src/classify/types.js';
import { resolveConfig } from '../../../../src/config/types.js';
import { classify } from '../../../../src/classify/index.js';

export async function loadApis(files: string[], cwd: string): Promise<{ apis: ApiModel[]; errors: string[] }> {
  const { docs, diagnostics } = await loadInputs(files, { cwd });
  const apis = docs.map((d) => buildApiModel(d).api);
  return { apis, errors: diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.file}: ${d.message}`) };
}

/** The real classifier with default config: the corpus tests exercise whatever plans users would get. */
export function planApis(apis: ApiModel[]): ApiPlan[] {
  return classify(apis, resolveConfig()).apis;
}
