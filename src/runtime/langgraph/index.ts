/**
 * `idemgen/runtime/langgraph`: OP-6 key sources for LangGraph.js nodes. `@langchain/langgraph` is an
 * optional peer: nothing here imports it statically.
 */
export { KeySourceError, currentNodeConfig, readTaskScope, type NodeConfig, type TaskScope } from './node-config.js';
export { deriveNodeKey, nodeIdempotencyKey, type NodeKeyOptions } from './node-key.js';
export { keepIdempotencyKey, mintStateKey, readStateKey, stateKeyField } from './state-key.js';
