/** Plan an inline spec (written under `__out__/<dir>`) with the real loader and IR and the given entry overrides. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiPlan } from '../../../../src/classify/types.js';
import { OUT_ROOT } from './compile.js';
import { planFor, type EntryOverride } from '../../../helpers/plan.js';
import { loadApis } from './spec-plan.js';

export async function inlinePlan(
  dir: string,
  name: string,
  spec: unknown,
  overrides: Record<string, EntryOverride>,
): Promise<ApiPlan> {
  const base = join(OUT_ROOT, dir);
  mkdirSync(base, { recursive: true });
  writeFileSync(join(base, name), JSON.stringify(spec, null, 2));
  const { apis, errors } = await loadApis([name], base);
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return planFor(apis[0]!, overrides);
}
