import { mechanismName, type MechanismInput } from '../core/mechanism.js';
import { createIdempotency, type Idempotency, type RunResult } from '../core/idempotency.js';
import type { KeyScope } from '../core/keys.js';
import type { DedupStore } from '../store/types.js';
import { awaitDurableCheckpoint } from './durable-checkpoint.js';
import { currentNodeConfig, readTaskInput, type NodeConfig } from './node-config.js';
import { nodeIdempotencyKey } from './node-key.js';
import { readStateKey } from './state-key.js';

/** Where the key of a call inside a node comes from (docs/concepts.md#checkpoint-keys: always from checkpointed state). */
export type NodeKeySource<A extends unknown[]> =
  /** Derived from the running task (thread_id, checkpoint_ns, call index): the default. */
  | 'task'
  /** Read from the state slot `{operation}_idempotency_key`, minted upstream (`mintStateKey`). */
  | 'state'
  /** Your own source; it must read checkpointed values, never the clock or a fresh uuid (docs/concepts.md#store-rules). */
  | ((ctx: { config: NodeConfig; state: unknown; args: A }) => string);

export interface InNodeOptions<A extends unknown[]> {
  /** Operation key as the plan names it (`tool:send_email`, `POST /v1/charges`). */
  operation: string;
  /** A dedup store; or pass `idempotency` to share one configured runtime. */
  store?: DedupStore;
  idempotency?: Idempotency;
  /** Default `fail-closed`: an interrupted send is never repeated on its own (docs/concepts.md#outcomes). */
  mechanism?: MechanismInput;
  key?: NodeKeySource<A>;
  /**
   * With `key: 'task'`: an id that tells calls apart instead of their order in the body, e.g. the
   * tool_call_id of the model message being executed (checkpointed with that message).
   */
  discriminator?: (...args: A) => string | undefined;
  /** Tenant/principal namespace of the dedup row. */
  scope?: string | KeyScope;
  ttlSeconds?: number;
  /** Lease of an attempt (only with `store`); after it a restarted process sees the row as stale. */
  leaseMs?: number;
  /** What identifies the call's content for the conflict check; default: the arguments. */
  args?: (...args: A) => unknown;
  /**
   * Wait until the checkpoint the key derives from is persisted before calling (default true).
   * `false` covers interrupt/resume and retries only, not a crash (e.g. with durability 'exit').
   */
  requireDurableCheckpoint?: boolean;
  /** Bound of that wait (an `async` checkpoint write still in flight). Default 3000 ms. */
  durableWaitMs?: number;
  /** Hands the key to the callee (a native-key header, a tool's `idempotency_key` argument). */
  withKey?: (key: string, args: A) => A;
}

export interface InNodeCall<A extends unknown[], R> {
  /** Inside a node body; finds the node's config through LangGraph's `getConfig()`. */
  (...args: A): Promise<RunResult<R>>;
  /** With the node's config passed explicitly (no AsyncLocalStorage needed). */
  withConfig(config: NodeConfig): (...args: A) => Promise<RunResult<R>>;
}

function resolveRuntime<A extends unknown[]>(options: InNodeOptions<A>): Idempotency {
  if (options.idempotency !== undefined) return options.idempotency;
  if (options.store === undefined) throw new TypeError('idempotentInNode: pass `store` or `idempotency`');
  // Omit rather than pass `undefined`: an explicit undefined would replace the runtime's default lease.
  return createIdempotency(
    options.leaseMs === undefined ? { store: options.store } : { store: options.store, leaseMs: options.leaseMs },
  );
}

function drawKey<A extends unknown[]>(options: InNodeOptions<A>, config: NodeConfig, args: A): string {
  const source = options.key ?? 'task';
  if (source === 'task') {
    return nodeIdempotencyKey(options.operation, { config, discriminator: options.discriminator?.(...args) });
  }
  const state = readTaskInput(config);
  if (source === 'state') return readStateKey(state, options.operation);
  return source({ config, state, args });
}

export interface NodeKeyRequest {
  /** The node's config; defaults to LangGraph's `getConfig()`. */
  config?: NodeConfig;
  discriminator?: string;
  /** As in `InNodeOptions`: wait for the planning checkpoint to be persisted (default true). */
  requireDurableCheckpoint?: boolean;
  durableWaitMs?: number;
}

/**
 * The task key for the next call of `operation`, for callees that dedupe themselves — a generated
 * client method takes it as `{ key }` and runs its own store (wrapping it in `idempotentInNode`
 * as well would claim the same row twice). Resolves once the key is durable.
 */
export async function nodeKey(operation: string, request: NodeKeyRequest = {}): Promise<string> {
  const config = await currentNodeConfig(request.config);
  const key = nodeIdempotencyKey(operation, { config, discriminator: request.discriminator });
  if (request.requireDurableCheckpoint !== false)
    await awaitDurableCheckpoint(config, { waitMs: request.durableWaitMs });
  return key;
}

/**
 * Wraps a side-effecting function (a generated client method, a tool handler) for use inside a
 * LangGraph node: each call runs through the dedup state machine under a key drawn from checkpointed
 * state, so the node body can re-run on resume, retry or restart and the effect still happens once
 * (docs/concepts.md#checkpoint-keys; the claim precedes the call, docs/concepts.md#outcomes). Returns `{ result, wasReplay, originalCalledAt }` (docs/concepts.md#replay).
 */
export function idempotentInNode<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
  options: InNodeOptions<A>,
): InNodeCall<A, R> {
  const runtime = resolveRuntime(options);
  const mechanism = mechanismName(options.mechanism ?? 'fail-closed'); // an `OP-N` option read as the name
  const callWith = (config: NodeConfig, args: A): Promise<RunResult<R>> => {
    // Drawn synchronously, before any await, so the per-node call index follows program order.
    const key = drawKey(options, config, args);
    const hashed = options.args !== undefined ? options.args(...args) : args.length === 1 ? args[0] : args;
    const callArgs = options.withKey !== undefined ? options.withKey(key, args) : args;
    const request = {
      operation: options.operation,
      key,
      scope: options.scope,
      args: hashed,
      mechanism,
      ttlSeconds: options.ttlSeconds,
    };
    if (options.requireDurableCheckpoint === false) return runtime.run(request, () => fn(...callArgs));
    return awaitDurableCheckpoint(config, { waitMs: options.durableWaitMs }).then(() =>
      runtime.run(request, () => fn(...callArgs)),
    );
  };
  const call = (async (...args: A) => callWith(await currentNodeConfig(), args)) as InNodeCall<A, R>;
  call.withConfig =
    (config) =>
    (...args: A) =>
      callWith(config, args);
  return call;
}
