import type { ApiModel, Operation } from '../ir/types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export type Effect = 'read' | 'write';
export type OperationClass = 'read-only' | 'native-key' | 'owned-store' | 'compensatable' | 'irreversible';
export type Mechanism = 'none' | 'OP-1' | 'OP-2' | 'OP-3' | 'OP-4' | 'OP-5' | 'fail-closed';
export type KeyStrategy = 'caller' | 'intent' | 'content';

/** Where the key travels to a native-key API (SOP Step 4). `argument` = a tool input property. */
export interface Carrier {
  in: 'header' | 'body' | 'form' | 'query' | 'argument';
  name: string;
  maxLength?: number;
  required?: boolean;
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
