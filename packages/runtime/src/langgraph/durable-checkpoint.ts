import { KeySourceError, readTaskScope, type NodeConfig } from './node-config.js';

/**
 * A node key is derived from the checkpoint its task was planned from (task id = uuid5(…, checkpoint id)).
 * That key is only as durable as that checkpoint: if the process dies before the checkpoint is
 * written, the restart re-plans the task from an older checkpoint under a new id — a new key, and a
 * second side effect. LangGraph writes it before the task runs with `durability: 'sync'`, concurrently
 * with `'async'` (the default), and only when the run exits with `'exit'`. So before the effect we wait
 * until the planning checkpoint is readable from the checkpointer: the key must exist before the side
 * effect (docs/concepts.md#checkpoint-keys).
 */
export interface DurableCheckpointOptions {
  /** How long to wait for an `async` write to land before failing closed. */
  waitMs?: number;
  pollMs?: number;
}

interface CheckpointReader {
  getTuple(config: { configurable: Record<string, unknown> }): Promise<unknown>;
}

export interface PlanningCheckpoint {
  threadId: string;
  /** Namespace of the graph that planned the task ('' for the root graph). */
  checkpointNs: string;
  checkpointId: string;
}

/** The checkpoint the running task was planned from, as LangGraph records it in the task config. */
export function readPlanningCheckpoint(config: NodeConfig): PlanningCheckpoint {
  const scope = readTaskScope(config);
  const parentNs = scope.checkpointNs.split('|').slice(0, -1).join('|');
  const map = config.configurable?.checkpoint_map as Record<string, unknown> | undefined;
  const id = map?.[parentNs] ?? (config.executionInfo as { checkpointId?: unknown } | undefined)?.checkpointId;
  if (typeof id !== 'string') throw new KeySourceError('the task config names no planning checkpoint (checkpoint_map)');
  return { threadId: scope.threadId, checkpointNs: parentNs, checkpointId: id };
}

function checkpointReader(config: NodeConfig): CheckpointReader {
  const saver = config.configurable?.__pregel_checkpointer as Partial<CheckpointReader> | undefined;
  if (typeof saver?.getTuple !== 'function') {
    throw new KeySourceError('the graph has no checkpointer: compile it with one so the key is checkpointed');
  }
  return saver as CheckpointReader;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function awaitDurableCheckpoint(
  config: NodeConfig,
  options: DurableCheckpointOptions = {},
): Promise<void> {
  const { waitMs = 3000, pollMs = 10 } = options;
  const planned = readPlanningCheckpoint(config);
  const reader = checkpointReader(config);
  const query = {
    configurable: {
      thread_id: planned.threadId,
      checkpoint_ns: planned.checkpointNs,
      checkpoint_id: planned.checkpointId,
    },
  };
  const deadline = Date.now() + waitMs;
  for (;;) {
    if ((await reader.getTuple(query)) !== undefined) return;
    if (Date.now() >= deadline) break;
    await sleep(pollMs);
  }
  throw new KeySourceError(
    `checkpoint ${planned.checkpointId} that this node's key derives from is not persisted after ${waitMs} ms ` +
      "(durability 'exit'?): a crash now would re-plan the task under a new key. Use durability 'sync' or 'async', " +
      'or pass requireDurableCheckpoint: false if only interrupt/resume must be covered.',
  );
}
