/**
 * The contract between the generator and the tool runtime: a `ToolBinding` is plain data —
 * everything needed to turn one model tool call into exactly one HTTP effect, with no generated glue.
 * The `handlers` artifact writes bindings into `handlers/<api>.tools.gen.ts`; `idemgen serve` builds
 * the same bindings in memory from the plan. Both hand them to `createToolRuntime`.
 */
import type { ToolAuth } from './auth.js';
import type { KeyScope } from '../core/keys.js';
import type { QueryStyle } from '../http/body.js';
import type { OperationDescription, OperationMechanism } from '../client/operation.js';

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

/** A binding's mechanism: the record's (`OperationDescription.mechanism`); `OP-1`…`OP-5` from older files. */
export type BindingMechanism = OperationMechanism;

/**
 * A tool binding is the operation record — the `OperationDescription` the generated client's `ops` entry
 * holds, made by the same generator stage (emit/operation-record.ts) and run by the same `executeOperation` —
 * plus the tool's face: its names, input schema, argument routes, annotations. `method` and `path` are the
 * HTTP request's; the client method name is `clientMethod`. Bindings generated before the record (a client
 * method name in `method`, the request in `http`) are read at the door (legacy-binding.ts).
 */
export interface ToolBinding extends OperationDescription {
  /** The name the model sees, per target format (sanitizing may differ per format). */
  names: { mcp: string; openai: string; anthropic: string };
  /** Client method name (ir/names.ts), for docs, typed wrappers and `find`. */
  clientMethod: string;
  effect: 'read' | 'write';
  tags?: string[];
  title?: string;
  description: string;
  /** The tool argument that carries the key (writes only; `idempotency_key`). */
  keyProperty?: string;
  routes: ArgRoute[];
  /** The record's body, and the tool argument that holds it. */
  body?: NonNullable<OperationDescription['body']> & { property: string; required: boolean };
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
  /**
   * A physical or financial action with no undo (config `overrides[…].impact`): where a person can be asked
   * (MCP elicitation), the write runs only after they confirm it, whatever the confirmation policy.
   */
  impact?: 'physical' | 'financial';
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
  /**
   * A write's key chosen by the server for this call (code mode keys each write of a run from the run's key):
   * it wins over a key argument, and the model's arguments stay as the model sent them.
   */
  key?: string;
  /**
   * The caller's own API credentials for this call, by security scheme (a per-user token): sent on the call
   * over the runtime's `auth`, and part of the dedup scope as a keyed hash (the runtime's `scopeSecret`), so
   * two callers acting on different upstream accounts never share a row.
   */
  credentials?: ToolAuth;
  signal?: AbortSignal;
  /** The person behind the call, when the client can ask them (MCP elicitation); absent: nobody is asked. */
  human?: Human;
}

/** What the person answered to "did it happen?" (`unknown`: they did not say, or could not tell). */
export type HappenedAnswer = 'happened' | 'not-happened' | 'unknown';

/**
 * A person the runtime may ask through the client (human.ts). Every question has a way out: no answer,
 * a decline or a cancel is `false` / `unknown`, never a yes.
 */
export interface Human {
  /** Who answers, as a decision records it (`reconcile --resolve`'s `by`): the caller's identity. */
  readonly who: string;
  /** "Run it?": `true` only for an explicit yes. */
  confirm(message: string, signal?: AbortSignal): Promise<boolean>;
  /** "Did it happen?" of an unknown outcome. */
  happened(message: string, signal?: AbortSignal): Promise<HappenedAnswer>;
}

/** What the model gets back (snake_case: it is read by models and serialized as JSON). */
export type ToolOutcome =
  | {
      ok: true;
      result: unknown;
      was_replay: boolean;
      /** How the replay was recognised (only on a replay): `store`, `header:Idempotent-Replayed`, `created-before-send`, `gone-after-retry`. */
      replay_evidence?: string;
      /** The original call's time, when known; absent otherwise (never an empty string). */
      original_called_at?: string;
      /** `false`: the call ran but its result was not stored (too large, no JSON); a retry cannot return it. */
      replayable?: false;
      /** A person settled this call's unknown outcome (human.ts): what they said, who, when. */
      resolved_by_user?: { answer: 'happened' | 'did-not-happen'; by: string; at: string };
      /** Said to the model next to the result (a settled outcome: what is and is not known). */
      note?: string;
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
