/**
 * Mechanism names and their older spelling. Generated code and stored rows from before the rename spell a
 * mechanism by its alias (`OP-1` … `OP-5`); the runtime reads those once, where outside data enters the
 * package (a generated description in `executeOperation`, bindings in `createToolRuntime`, middleware and
 * checkpoint options, rows read from a store), and works with the names alone inside: `HttpCaller.send` and
 * `Idempotency.run` take names. docs/concepts.md describes each mechanism.
 */
import type { StoreMechanism } from './store-types.js';

/** The alias a mechanism was spelled with before it had a name (docs/concepts.md#mechanisms). */
export type LegacyMechanism = 'OP-1' | 'OP-2' | 'OP-3' | 'OP-4' | 'OP-5';

/** A mechanism as a caller may pass it: its name or its alias. */
export type MechanismInput = StoreMechanism | LegacyMechanism;

const BY_NUMBER: Readonly<Record<string, StoreMechanism>> = {
  'OP-1': 'native-key',
  'OP-2': 'dedup-table',
  'OP-3': 'content-address',
  'OP-4': 'unique-insert',
  'OP-5': 'saga',
};

/** The name of a mechanism given by name or alias; any other string comes back as it is. */
export function mechanismName<M extends string>(m: M | LegacyMechanism): Exclude<M, LegacyMechanism> {
  return (Object.hasOwn(BY_NUMBER, m) ? BY_NUMBER[m] : m) as Exclude<M, LegacyMechanism>;
}

/**
 * The one retry-safe set: mechanisms where a repeat of the same call cannot repeat the effect — the downstream
 * dedupes the key (`native-key`), the resource is addressed by its content (`content-address`), or the method
 * is idempotent (`method-idempotent`, RFC 9110 §9.2.2). The state machine retries an expired lease of these
 * (settle.ts, idempotency.ts); the tool runtime tells the model a same-key retry resolves an unknown outcome.
 * `method-idempotent` never reaches a store.
 */
export const RETRY_SAFE_MECHANISMS: ReadonlySet<StoreMechanism | 'method-idempotent'> = new Set<
  StoreMechanism | 'method-idempotent'
>(['native-key', 'content-address', 'method-idempotent']);

/** Whether a mechanism (a name, or any other string: never safe) is in the retry-safe set. */
export function isRetrySafe(mechanism: string): boolean {
  return (RETRY_SAFE_MECHANISMS as ReadonlySet<string>).has(mechanism);
}
