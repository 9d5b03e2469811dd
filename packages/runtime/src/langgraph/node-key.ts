import { createHash } from 'node:crypto';
import { readTaskScope, taskExecutionAnchor, type NodeConfig } from './node-config.js';

/**
 * Checkpoint-key source: a key drawn from what LangGraph checkpoints, never minted in the node body.
 *
 * key = SHA-256(thread_id, checkpoint_ns, operation, n) where checkpoint_ns carries the task id and
 * n counts calls of `operation` within one execution of the node body. Why each part:
 * - the task id is uuid5(namespace, step, node, trigger) in the id of the checkpoint the task was
 *   planned from. A resume (Command({resume})), a retry and a process restart re-plan the task from
 *   that same checkpoint, so it is the same; the next loop iteration is planned from a newer
 *   checkpoint, so it differs (new intent → new key, docs/concepts.md#repeated-intent).
 * - thread_id separates conversations even if a checkpoint is copied between threads.
 * - the body re-runs from the top on resume (docs/concepts.md#outcomes, [langgraph/gotchas]), so the n-th call of an
 *   operation in this run of the body is the n-th call in every run of it. The counter restarts for
 *   each execution (a new scratchpad) and each retry attempt (a new `executionInfo.nodeAttempt`).
 * The arguments are deliberately NOT part of the key: a body that recomputes different arguments
 * on resume (an LLM re-proposing) must hit an args-mismatch conflict, not a fresh key (docs/concepts.md#changed-arguments).
 */
export interface NodeKeyOptions {
  /** The node's config (second parameter); defaults to LangGraph's `getConfig()` in the caller. */
  config: NodeConfig;
  /**
   * Replaces the call counter when call order is not deterministic across re-runs
   * (e.g. the id of the item being processed). Must itself come from checkpointed state.
   */
  discriminator?: string;
}

const KEY_VERSION = 'idemgen/langgraph/node-key/v1';

interface CallCounters {
  attempt: number | undefined;
  next: Map<string, number>;
}

/** One counter set per task execution; weakly held so finished tasks are collected. */
const countersByExecution = new WeakMap<object, CallCounters>();

/** Claims the next call index of `operation` in the running node body (synchronous: order = call order). */
function claimCallIndex(config: NodeConfig, operation: string): number {
  const anchor = taskExecutionAnchor(config);
  const attempt = config.executionInfo?.nodeAttempt;
  let counters = countersByExecution.get(anchor);
  // A retry re-runs the body on the same scratchpad; only nodeAttempt tells the attempts apart.
  if (counters === undefined || (attempt !== undefined && counters.attempt !== attempt)) {
    counters = { attempt, next: new Map() };
    countersByExecution.set(anchor, counters);
  }
  const index = counters.next.get(operation) ?? 0;
  counters.next.set(operation, index + 1);
  return index;
}

/** The deterministic key for one call site; pure given its inputs. */
export function deriveNodeKey(threadId: string, checkpointNs: string, operation: string, slot: string): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([KEY_VERSION, threadId, checkpointNs, operation, slot]))
    .digest('hex');
  return `lg_${digest}`;
}

/**
 * The key for the next call of `operation` in this node body. Each call claims a new index, so call
 * it exactly once per side effect, in program order.
 */
export function nodeIdempotencyKey(operation: string, options: NodeKeyOptions): string {
  const scope = readTaskScope(options.config);
  return deriveNodeKey(scope.threadId, scope.checkpointNs, operation, callSlot(operation, options));
}

/**
 * An explicit discriminator wins; inside a ToolNode tool (config = the tool's runtime) the
 * tool_call_id names the call, so parallel tool calls do not depend on their start order.
 */
function callSlot(operation: string, options: NodeKeyOptions): string {
  if (options.discriminator !== undefined) return `d:${options.discriminator}`;
  const toolCallId = options.config.toolCallId;
  if (typeof toolCallId === 'string' && toolCallId !== '') {
    return `t:${toolCallId}:n:${String(claimCallIndex(options.config, `${operation}\u0000${toolCallId}`))}`;
  }
  return `n:${String(claimCallIndex(options.config, operation))}`;
}
