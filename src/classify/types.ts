import type { ApiModel, Operation } from '../ir/types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export type Effect = 'read' | 'write';
export type OperationClass = 'read-only' | 'native-key' | 'owned-store' | 'compensatable' | 'irreversible';
export type Mechanism = 'none' | 'OP-1' | 'OP-2' | 'OP-3' | 'OP-4' | 'OP-5' | 'fail-closed';
export type KeyStrategy = 'caller' | 'intent' | 'content';

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
}

export interface CarrierVariant {
  /** JSON pointer of the variant schema in the source document. */
  pointer: string;
  path: string[];
}

/** A carrier as a user writes it in config (overrides, heuristics.providers): `path` is derived when absent. */
export type CarrierInput = Omit<Carrier, 'path' | 'variants'> & { path?: string[] };

/** The carrier's `path`, derived from `name` when the source gave none (a body/form name is dotted). */
export function completeCarrier(c: CarrierInput): Carrier {
  if (c.path !== undefined && c.path.length > 0) return { ...c, path: [...c.path] };
  const path = c.in === 'body' || c.in === 'form' ? c.name.split('.') : [c.name];
  return { ...c, path };
}

/** One rule that fired: lets the audit explain a decision and a reviewer dispute it. */
export interface Reason {
  rule: string;
  detail: string;
  pointer?: string;
}

export interface PlanEntry {
  operation: Operation;
  effect: Effect;
  effectReasons: Reason[];
  class: OperationClass;
  mechanism: Mechanism;
  /** Tools exposed through MCP are deduped at the tool boundary on top of their class. */
  toolBoundary?: 'OP-7';
  carrier: Carrier | null;
  keyStrategy: KeyStrategy | null;
  ttlSeconds?: number;
  /** OP-5: the operation key of the compensating call. */
  compensation?: string;
  /** PUT/DELETE: idempotent by method semantics (RFC 9110 §9.2.2), still a side effect. */
  methodIdempotent?: boolean;
  /** OP-4: the owned table named by config. */
  ownedTable?: string;
  reasons: Reason[];
}

export interface ApiPlan {
  api: ApiModel;
  /** Same order as `api.operations` (sorted by key). */
  entries: PlanEntry[];
}

export interface Plan {
  apis: ApiPlan[];
  /** Audit findings (rule ids, severities after config overrides) and classification diagnostics. */
  diagnostics: Diagnostic[];
}
