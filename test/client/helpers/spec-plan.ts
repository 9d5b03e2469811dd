/** Load a spec with the real loader and IR, then plan it (real classifier when present, else `planFor`). */
import { loadInputs } from '../../../src/load/index.js';
import { buildApiModel } from '../../../src/ir/index.js';
import type { ApiModel } from '../../../src/ir/types.js';

export async function loadApis(files: string[], cwd: string): Promise<{ apis: ApiModel[]; errors: string[] }> {
  const { docs, diagnostics } = await loadInputs(files, { cwd });
  const apis = docs.map((d) => buildApiModel(d).api);
  return { apis, errors: diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.file}: ${d.message}`) };
}
