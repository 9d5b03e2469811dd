/** Plan entries for client tests: reads are plain, writes get the mechanism a table assigns (default fail-closed). */
import type { ApiModel } from '../../../../src/ir/types.js';
import type { ApiPlan, PlanEntry } from '../../../../src/classify/types.js';

export type EntryOverride = Partial<Pick<PlanEntry, 'class' | 'mechanism' | 'carrier' | 'keyStrategy' | 'ttlSeconds' | 'compensation' | 'reasons'>>;

const READ = new Set(['get', 'head', 'options', 'trace']);

export function planFor(api: ApiModel, overrides: Record<string, EntryOverride> = {}): ApiPlan {
  const entries: PlanEntry[] = api.operations.map((operation) => {
    const read = operation.kind === 'http' && READ.has(operation.method);
    const base: PlanEntry = read
      ? { operation, effect: 'read', effectReasons: [], class: 'read-only', mechanism: 'none', carrier: null, keyStrategy: null, reasons: [{ rule: 'effect/http-method', detail: 'safe method' }] }
      : { operation, effect: 'write', effectReasons: [], class: 'irreversible', mechanism: 'fail-closed', carrier: null, keyStrategy: null, ttlSeconds: 86400, reasons: [{ rule: 'class/irreversible', detail: 'no native key, store not owned, no inverse' }] };
    return { ...base, ...(overrides[operation.key] ?? {}) };
  });
  return { api, entries };
}
