/**
 * The SOP words a user writes in config (overrides, `heuristics.providers`) and the classifier writes in its
 * plan: mechanisms, key strategies, carriers. They live at the config layer, the lower of the two, so config
 * never imports the classifier; `classify/types.ts` re-exports them for its readers.
 */

export const MECHANISMS = ['none', 'OP-1', 'OP-2', 'OP-3', 'OP-4', 'OP-5', 'fail-closed', 'method-idempotent'] as const;
export type Mechanism = (typeof MECHANISMS)[number];

export const KEY_STRATEGIES = ['caller', 'intent', 'content'] as const;
export type KeyStrategy = (typeof KEY_STRATEGIES)[number];

/**
 * Where the key travels to a native-key API (SOP Step 4). `argument` = a tool input property.
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
