/**
 * The words a user writes in config (overrides, `heuristics.providers`) and the classifier writes in its
 * plan: mechanisms, key strategies, carriers. They live at the config layer, the lower of the two, so config
 * never imports the classifier; `classify/types.ts` re-exports them for its readers.
 */

/** How a write is kept to one effect; docs/concepts.md describes each. */
export const MECHANISMS = [
  'none',
  'native-key',
  'dedup-table',
  'content-address',
  'unique-insert',
  'saga',
  'method-idempotent',
  'fail-closed',
] as const;
export type Mechanism = (typeof MECHANISMS)[number];

/** The mechanisms' aliases (docs/concepts.md#mechanisms), still accepted in config (`mechanism: OP-1`) and printed by the audit. */
const ALIASES = {
  'native-key': 'OP-1',
  'dedup-table': 'OP-2',
  'content-address': 'OP-3',
  'unique-insert': 'OP-4',
  saga: 'OP-5',
} as const satisfies Partial<Record<Mechanism, string>>;
type Alias = (typeof ALIASES)[keyof typeof ALIASES];

/** A mechanism as a user may write it: its name or its alias. */
export type MechanismInput = Mechanism | Alias;

const BY_NUMBER = new Map<string, Mechanism>(Object.entries(ALIASES).map(([m, n]) => [n, m as Mechanism]));
const NAMES = new Set<string>(MECHANISMS);

/** The mechanism a name or alias stands for; `undefined` for anything else. */
export function mechanismOf(input: string): Mechanism | undefined {
  return NAMES.has(input) ? (input as Mechanism) : BY_NUMBER.get(input);
}

/** `native-key (OP-1)`, or the bare name when the mechanism has no alias. */
export function mechanismLabel(m: Mechanism): string {
  const n = (ALIASES as Partial<Record<Mechanism, string>>)[m];
  return n ? `${m} (${n})` : m;
}

export const KEY_STRATEGIES = ['caller', 'intent', 'content'] as const;
export type KeyStrategy = (typeof KEY_STRATEGIES)[number];

/**
 * Where the key travels to a native-key API (docs/concepts.md#carriers). `argument` = a tool input property.
 *
 * `path` is the exact place the key is written, as plain data for every consumer (generated clients,
 * tool handlers that map the flat `idempotency_key` argument back, the audit):
 *  - `header` / `query`: `[parameterName]` (the header name as the spec spells it);
 *  - `body` / `form`: property names from the request body's root, e.g. `['data', 'attributes',
 *    'idempotencyKey']` for a JSON:API body or `['request', 'idempotency_key']` for an envelope; the
 *    objects on the way are created when the caller's body lacks them;
 *  - `argument`: `[propertyName]` of the tool input.
 * Segments are raw property names (a name may contain a dot); `name` is for people (dotted for bodies).
 */
export interface Carrier {
  in: 'header' | 'body' | 'form' | 'query' | 'argument';
  name: string;
  path: string[];
  /**
   * A `oneOf`/`anyOf` body whose variants carry the key at different paths, or not all of them: one
   * entry per keyed variant (pointer of the variant schema, its path). `path` is the first of them.
   * Absent when every variant has the key at `path`.
   */
  variants?: CarrierVariant[];
  maxLength?: number;
  required?: boolean;
  /**
   * Header: the OASIS Repeatable Requests pair. The client also sends this header (`Repeatability-First-Sent`)
   * with the first attempt's time in IMF-fixdate, the same on every retry.
   */
  firstSent?: string;
}

export interface CarrierVariant {
  /** JSON pointer of the variant schema in the source document. */
  pointer: string;
  path: string[];
}

/** A carrier as a user writes it in config (overrides, heuristics.providers): `path` is derived when absent. */
export type CarrierInput = Omit<Carrier, 'path' | 'variants'> & { path?: string[] };
