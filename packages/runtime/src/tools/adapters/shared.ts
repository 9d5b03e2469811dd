/**
 * What every framework adapter shares: which tools to expose, where the key comes from, and how the
 * schema the model sees follows from that. Key sources (docs/concepts.md#store-rules): the model's own `idempotency_key`
 * (default, docs/concepts.md#tool-dedup: the model reuses it on a retry it decides on), or an intent the app derives from
 * its own state (thread/turn, docs/concepts.md#repeated-intent). Never the framework's tool-call id: a model that emits the same
 * call twice gives each emission a new id, so keying on it dedupes nothing.
 */
import type { KeyScope } from '../../core/keys.js';
import type { ToolRuntime } from '../runtime.js';
import type { ToolBinding, ToolCallContext } from '../types.js';

type Obj = Record<string, unknown>;

export interface AdapterOptions<C> {
  /** Expose only the tools this returns true for (default: all). */
  include?: (binding: ToolBinding) => boolean;
  /**
   * `model` (default): writes require `idempotency_key` from the model. `intent`: the key argument is
   * hidden from the model and every write is keyed by `intent(context)` + its arguments — return the ids
   * that name one intended action in your app (thread, turn), never the tool-call id.
   */
  keySource?: 'model' | 'intent';
  /** The app's intent for this call, from the framework's call context. Used when no model key is present. */
  intent?: (context: C) => Record<string, string | number> | undefined;
  /** The principal whose keys these are (the signed-in user): one user's key never replays another's. */
  scope?: (context: C) => string | KeyScope | undefined;
}

export function selected(runtime: ToolRuntime, include: AdapterOptions<unknown>['include']): ToolBinding[] {
  return runtime.list().filter((b) => include === undefined || include(b));
}

/** The schema without the key argument, for `keySource: 'intent'`. */
function withoutKey(schema: Obj, keyProperty: string | undefined): Obj {
  if (keyProperty === undefined || typeof schema.properties !== 'object' || schema.properties === null) return schema;
  const { [keyProperty]: _k, ...properties } = schema.properties as Obj;
  const required = Array.isArray(schema.required)
    ? (schema.required as string[]).filter((r) => r !== keyProperty)
    : schema.required;
  return { ...schema, properties, ...(required !== undefined ? { required } : {}) };
}

export function modelSchema(binding: ToolBinding, schema: Obj, keySource: AdapterOptions<unknown>['keySource']): Obj {
  return keySource === 'intent' ? withoutKey(schema, binding.keyProperty) : schema;
}

/** The call context from the adapter options and the framework's context; the intent is required for `keySource: 'intent'`. */
export function callContext<C>(
  o: AdapterOptions<C>,
  format: ToolCallContext['format'],
  context: C,
  signal?: AbortSignal,
): ToolCallContext {
  const ctx: ToolCallContext = { format };
  const intent = o.intent?.(context);
  if (intent !== undefined) ctx.intent = intent;
  const scope = o.scope?.(context);
  if (scope !== undefined) ctx.scope = scope;
  if (signal !== undefined) ctx.signal = signal;
  return ctx;
}

/** `keySource: 'intent'` drops a key the model may still send: the app's intent is the one source. */
export function argsFor(binding: ToolBinding, args: unknown, keySource: AdapterOptions<unknown>['keySource']): unknown {
  if (keySource !== 'intent' || binding.keyProperty === undefined || args === null || typeof args !== 'object')
    return args;
  const { [binding.keyProperty]: _k, ...rest } = args as Obj;
  return rest;
}
