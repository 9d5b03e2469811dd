/**
 * The contract between the generator and the tool runtime (issue 14): a `ToolBinding` is plain data —
 * everything needed to turn one model tool call into exactly one HTTP effect, with no generated glue.
 * The `handlers` artifact writes bindings into `handlers/<api>.tools.gen.ts`; `idemgen serve` builds
 * the same bindings in memory from the plan. Both hand them to `createToolRuntime`.
 */
import type { KeyScope } from '../core/keys.js';
import type { QueryStyle } from '../http/body.js';
import type { LegacyMechanism } from '../core/mechanism.js';
import type { Compensation } from '../client/operation.js';
import type { VerificationPlan } from '../verify/types.js';

/** Where one flat tool argument goes in the HTTP request. */
export interface ArgRoute {
  /** The tool's input property (`customer_id`, or `query_limit` after a name clash). */
  property: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  /** The parameter's own name in the spec. */
  name: string;
  /** A query parameter's array/object style when not the runtime's brackets (`QueryStyle`: `multi` is `id=a&id=b`). */
  style?: QueryStyle;
}

/** The native key's place in the request (native-key, docs/concepts.md#mechanisms); `path` is the full body path for body/form keys. */
export interface BindingCarrier {
  in: 'header' | 'query' | 'body' | 'form';
  name: string;
  path?: string[];
  /** A `oneOf` body whose variants carry the key at different paths: one path each (the runtime picks). */
  paths?: string[][];
  /** Header carriers of the OASIS Repeatable Requests pair: the header that gets the first attempt's time. */
  firstSent?: string;
}

export type BindingMechanism =
  | 'none'
  | 'native-key'
  | 'dedup-table'
  | 'content-address'
  | 'unique-insert'
  | 'saga'
  | 'method-idempotent'
  | 'fail-closed'
  // the aliases bindings generated before the rename carry; createToolRuntime reads them as the names
  | LegacyMechanism;

export interface ToolBinding {
  /** The name the model sees, per target format (sanitizing may differ per format). */
  names: { mcp: string; openai: string; anthropic: string };
  /** Operation key (`POST /v1/charges`): the dedup row's operation and the audit row it links to. */
  operation: string;
  /** Client method name (ir/names.ts), for docs and typed wrappers. */
  method: string;
  http: { method: string; path: string };
  effect: 'read' | 'write';
  mechanism: BindingMechanism;
  tags?: string[];
  title?: string;
  description: string;
  /** The tool argument that carries the key (writes only; `idempotency_key`). */
  keyProperty?: string;
  keyLimits?: { minLength?: number; maxLength?: number };
  carrier?: BindingCarrier;
  ttlSeconds?: number;
  routes: ArgRoute[];
  body?: {
    property: string;
    encoding: 'json' | 'form' | 'multipart' | 'text' | 'binary';
    mediaType?: string;
    required: boolean;
  };
  /** saga: how to undo the effect (the compensating operation, and where each of its path parameters comes from). */
  compensation?: Compensation;
  /** How to tell afterwards whether a call took effect, by reading the API (runtime/verify). */
  verification?: VerificationPlan;
  /**
   * MCP / JSON Schema 2020-12 input schema (with the key property on writes): validation and listing. The
   * OpenAI strict form (parameters, JSON-encoded pointers) is derived from it when asked (strict/of-binding.ts).
   */
  inputSchema: Record<string, unknown>;
  /**
   * The spec's security requirements for this operation: alternatives (any one suffices), each a set of
   * schemes used together. The runtime fills them from its `auth` option, never from the model.
   */
  security?: BindingSecurity[][];
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** One security scheme of the spec, reduced to where its credential goes. */
export interface BindingSecurity {
  /** The scheme's name in the spec (`components.securitySchemes` key): the `auth` option is keyed by it. */
  scheme: string;
  /** `bearer` covers HTTP bearer, OAuth 2 and OpenID Connect (a token in `Authorization: Bearer`). */
  type: 'bearer' | 'basic' | 'apiKey';
  /** apiKey only. */
  in?: 'header' | 'query' | 'cookie';
  name?: string;
}

/** How a call arrived and who made it. */
export interface ToolCallContext {
  /** Argument dialect: OpenAI strict mode sends optional fields as null and free-form objects as JSON text. */
  format?: 'mcp' | 'openai' | 'anthropic' | 'ai-sdk';
  /** The principal's namespace for stored keys (the authenticated subject); never the OAuth client. */
  scope?: string | KeyScope;
  /**
   * App-derived intent (docs/concepts.md#repeated-intent): with no model-supplied key, the key is derived from this and the
   * arguments — never from the tool-call id (docs/concepts.md#store-rules: one per emission, not per intent).
   */
  intent?: Record<string, string | number>;
  signal?: AbortSignal;
}

/** What the model gets back (snake_case: it is read by models and serialized as JSON). */
export type ToolOutcome =
  | {
      ok: true;
      result: unknown;
      was_replay: boolean;
      original_called_at?: string;
      /** `false`: the call ran but its result was not stored (too large, no JSON); a retry cannot return it. */
      replayable?: false;
      /** An unknown outcome a read of the API settled: the plan's shape and what the read showed. */
      verified?: { shape: string; evidence: string };
      /** The write happened and cannot be undone automatically (a saga whose inverse has no address). */
      cannot_undo?: true;
    }
  | { ok: false; error: ToolCallError };

export interface ToolCallError {
  /** Stable code: `invalid_arguments`, `api_error`, `idempotency_conflict`, `idempotency_outcome_unknown`, … */
  code: string;
  message: string;
  /** Whether the effect happened: `no` (safe to correct and retry), `unknown`, or `yes`. */
  executed: 'no' | 'unknown' | 'yes';
  /** May the same key be sent again (after correcting the arguments for `invalid_arguments`)? */
  retry_same_key: boolean;
  status?: number;
  /** The API's own error code and message, from its error body. */
  api_code?: string;
  api_message?: string;
  /** JSON pointers and messages of argument errors. */
  issues?: { pointer: string; message: string }[];
  /** `idempotency_in_flight`: when the running call's lease ends, ms from now (the earliest useful retry). */
  retry_after_ms?: number;
}
