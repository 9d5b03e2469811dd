import { KeySourceError, type NodeConfig } from './node-config.js';
import { nodeIdempotencyKey } from './node-key.js';
import { stateKeyField } from './state-field.js';

export { stateKeyField };

/**
 * Checkpoint keys via a state slot (docs/concepts.md#names: `{operation}_idempotency_key`).
 *
 * A node's state update is committed only when the node *returns*: a key minted before `interrupt()`
 * in the same node is lost when the interrupt throws, and the resumed body mints another (writing into
 * `state` in place, as Python examples do, is never checkpointed in LangGraph.js).
 * So the key is minted by an upstream node that returns it, and the side-effecting node reads it.
 * Minting is deterministic (the node key of the minting task), so a re-run of the minting node
 * writes the same key, and each new execution of it (a loop iteration) writes a new one.
 *
 * The state update an upstream node returns to persist a fresh key for `operation` (one per execution). */
export function mintStateKey(operation: string, config: NodeConfig): Record<string, string> {
  return { [stateKeyField(operation)]: nodeIdempotencyKey(`mint:${operation}`, { config }) };
}

/** The key persisted for `operation`; throws when none is there (fail closed rather than key on nothing). */
export function readStateKey(state: unknown, operation: string): string {
  const field = stateKeyField(operation);
  const value = typeof state === 'object' && state !== null ? (state as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'string' || value === '') {
    throw new KeySourceError(
      `state has no "${field}": mint it in an upstream node (mintStateKey) and declare the field in the graph state`,
    );
  }
  return value;
}

/**
 * Reducer for a `{operation}_idempotency_key` channel: a write of `undefined` keeps the stored key,
 * any string replaces it, `null` clears it once the effect is done.
 */
export function keepIdempotencyKey(current: string | null, update: string | null | undefined): string | null {
  return update === undefined ? current : update;
}
