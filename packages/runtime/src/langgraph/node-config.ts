/**
 * The slice of a LangGraph node's RunnableConfig the key sources read. Typed structurally so that
 * `@idemgen/runtime/langgraph` compiles and loads without `@langchain/langgraph` installed
 * (it is an optional peer; it is only imported dynamically, for `getConfig()`).
 */
export interface NodeConfig {
  configurable?: Record<string, unknown>;
  /** LangGraph ≥ 1.x: per-attempt facts about the running task (`nodeAttempt` grows on a retry). */
  executionInfo?: { nodeAttempt?: number; taskId?: string; threadId?: string; checkpointNs?: string };
  /**
   * Set on the runtime a ToolNode hands a tool (its second argument): the model's tool_call_id,
   * checkpointed with the AI message, so it names one call across re-runs.
   */
  toolCallId?: string;
}

/** Where a node-scoped key comes from: stable while the same task is resumed or retried. */
export interface TaskScope {
  threadId: string;
  /** `node:<taskId>` (nested: `parent:<id>|child:<id>`); the task id is uuid5(step, node, trigger) in the checkpoint's id. */
  checkpointNs: string;
}

/** The key cannot be drawn from checkpointed state here: fail loudly instead of keying on nothing (docs/concepts.md#store-rules). */
export class KeySourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeySourceError';
  }
}

/** LangGraph keeps per-task scratch state here; shared by every config derived inside one task execution. */
const SCRATCHPAD = '__pregel_scratchpad';

export function readTaskScope(config: NodeConfig): TaskScope {
  const conf = config.configurable ?? {};
  const threadId = conf.thread_id;
  const checkpointNs = conf.checkpoint_ns;
  if (typeof checkpointNs !== 'string' || checkpointNs === '' || conf[SCRATCHPAD] === undefined) {
    throw new KeySourceError(
      "not inside a LangGraph node: no checkpoint_ns/task in the config. Call this from a node body, or pass the node's config.",
    );
  }
  if (typeof threadId !== 'string' && typeof threadId !== 'number') {
    // Without a thread there is no checkpoint to resume from, so no key can be stable (docs/concepts.md#store-rules "framework pitfalls").
    throw new KeySourceError(
      'no configurable.thread_id: compile the graph with a checkpointer and invoke it with a thread_id so the key is checkpointed.',
    );
  }
  return { threadId: String(threadId), checkpointNs };
}

/** The object that lives exactly as long as one execution of the node body (re-created on every resume). */
export function taskExecutionAnchor(config: NodeConfig): object {
  const scratchpad = config.configurable?.[SCRATCHPAD];
  if (typeof scratchpad !== 'object' || scratchpad === null) {
    throw new KeySourceError('not inside a LangGraph node: the task scratchpad is missing from the config.');
  }
  return scratchpad;
}

/** The current task input (the node's state), as LangGraph's `getCurrentTaskInput` reads it. */
export function readTaskInput(config: NodeConfig): unknown {
  const scratchpad = taskExecutionAnchor(config) as { currentTaskInput?: unknown };
  return scratchpad.currentTaskInput;
}

interface LangGraphModule {
  getConfig(): NodeConfig | undefined;
}

let loading: Promise<LangGraphModule> | undefined;

/** `getConfig()` through a dynamic import: the only runtime touch of the optional peer dependency. */
export async function currentNodeConfig(given?: NodeConfig): Promise<NodeConfig> {
  if (given !== undefined) return given;
  const specifier = '@langchain/langgraph';
  loading ??= import(specifier).catch((cause: unknown) => {
    loading = undefined;
    throw new KeySourceError(
      `@langchain/langgraph is not installed (${String(cause)}); pass the node's config explicitly.`,
    );
  }) as Promise<LangGraphModule>;
  const config = (await loading).getConfig();
  if (config === undefined) {
    throw new KeySourceError(
      "no LangGraph config in this async context (AsyncLocalStorage): pass the node's config explicitly.",
    );
  }
  return config;
}
