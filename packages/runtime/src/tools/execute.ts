/**
 * A tool binding is its operation record (types.ts): `executeOperation` runs it as the generated client runs
 * its `ops` entry. The one difference is the tool boundary's own: a write classify refused (`none`) is still
 * deduplicated here (fail closed, tool-dedup), and every write accepts a key or an intent (runtime.ts).
 */
import type { NamedDescription } from '../client/operation.js';
import type { ToolBinding } from './types.js';

/** native-key with an HTTP carrier: the API dedupes (docs/concepts.md#store-rules, second pattern); the runtime keeps no row. */
export function isNative(b: ToolBinding): boolean {
  return b.effect === 'write' && b.mechanism === 'native-key' && b.carrier !== undefined;
}

const failClosed = new WeakMap<ToolBinding, NamedDescription>();

/** What `executeOperation` runs: the binding itself; a refused write as fail-closed (made once per binding). */
export function operationOf(b: ToolBinding): NamedDescription {
  if (b.effect !== 'write' || b.mechanism !== 'none') return b as NamedDescription;
  let d = failClosed.get(b);
  if (d === undefined) {
    d = { ...b, mechanism: 'fail-closed' } as NamedDescription;
    failClosed.set(b, d);
  }
  return d;
}
