/**
 * `@idemgen/runtime/langgraph`: checkpoint keys for LangGraph.js (docs/concepts.md#checkpoint-keys) — idempotency keys drawn from checkpointed state,
 * stable across interrupt/resume, retry and restart. `@langchain/langgraph` is an optional peer:
 * nothing here imports it statically.
 */
export { KeySourceError, currentNodeConfig, readTaskScope, type NodeConfig, type TaskScope } from './node-config.js';
export { deriveNodeKey, nodeIdempotencyKey, type NodeKeyOptions } from './node-key.js';
export { keepIdempotencyKey, mintStateKey, readStateKey, stateKeyField } from './state-key.js';
export {
  awaitDurableCheckpoint,
  readPlanningCheckpoint,
  type DurableCheckpointOptions,
  type PlanningCheckpoint,
} from './durable-checkpoint.js';
export {
  idempotentInNode,
  nodeKey,
  type InNodeCall,
  type InNodeOptions,
  type NodeKeyRequest,
  type NodeKeySource,
} from './in-node.js';
