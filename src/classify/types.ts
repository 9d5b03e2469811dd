import type { ApiModel, Operation } from '../ir/types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Carrier, CarrierInput, KeyStrategy, Mechanism } from '../config/vocabulary.js';
import type { VerificationPlan } from '@idemgen/runtime';

export type { VerificationPlan } from '@idemgen/runtime';

export type { Carrier, CarrierInput, CarrierVariant, KeyStrategy, Mechanism } from '../config/vocabulary.js';

export type Effect = 'read' | 'write';
export type OperationClass =
  | 'read-only'
  | 'native-key'
  | 'method-idempotent'
  | 'owned-store'
  | 'compensatable'
  | 'irreversible';

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
  /** A key carrier found by the evidence model (key-evidence.ts): every signal that carried the decision. */
  signals?: string[];
}

/**
 * Where one path parameter of a saga's inverse takes its value: a value the write's request chose (its path,
 * query or body) or a field of its success response. Decided at generate time and shown in the audit.
 */
export interface AddressPart {
  /** The inverse's path parameter. */
  param: string;
  in: 'path' | 'query' | 'body' | 'response';
  /** The request argument or response field that holds it. */
  name: string;
}

export interface PlanEntry {
  operation: Operation;
  effect: Effect;
  effectReasons: Reason[];
  class: OperationClass;
  mechanism: Mechanism;
  /** Tools exposed through MCP are deduped at the tool boundary on top of their class. */
  toolBoundary?: 'tool-dedup';
  carrier: Carrier | null;
  keyStrategy: KeyStrategy | null;
  ttlSeconds?: number;
  /** OP-5: the operation key of the compensating call. */
  compensation?: string;
  /**
   * OP-5: how the inverse is addressed (one part per path parameter of the inverse; `[]` for a singleton).
   * Absent on a saga: the inverse cannot be addressed, a 2xx completes the write, which cannot be undone.
   */
  compensationAddress?: AddressPart[];
  /** How to tell afterwards whether a call of this write took effect (verification.ts); absent: no plan. */
  verification?: VerificationPlan;
  /** PUT/DELETE: idempotent by method semantics (RFC 9110 §9.2.2), still a side effect. */
  methodIdempotent?: boolean;
  /** OP-4: the owned table named by config. */
  ownedTable?: string;
  /** Per HTTP attempt, in ms (config `overrides[…].timeoutMs`): replaces the caller's default. */
  timeoutMs?: number;
  /** A physical or financial action with no undo (config `overrides[…].impact`): a person confirms it first. */
  impact?: 'physical' | 'financial';
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
