/** Loaded with @langchain/* hidden: the LangGraph entry point must load and fail only where it needs the peer. */
import {
  KeySourceError,
  idempotentInNode,
  nodeIdempotencyKey,
} from '../../../../packages/runtime/src/langgraph/index.js';
import { createMemoryStore } from '../../../../packages/runtime/src/store/memory.js';

const config = { configurable: { thread_id: 't', checkpoint_ns: 'send:task-1', __pregel_scratchpad: {} } };
const key = nodeIdempotencyKey('tool:send_email', { config });
const wrapped = idempotentInNode(async (n: number) => n * 2, {
  operation: 'tool:double',
  store: createMemoryStore(),
  requireDurableCheckpoint: false, // this probe has no graph, hence no checkpointer
});
const explicit = await wrapped.withConfig(config)(21);
let viaGetConfig = 'no error';
try {
  await wrapped(21);
} catch (err) {
  viaGetConfig = `${(err as Error).name}: ${err instanceof KeySourceError ? 'KeySourceError' : 'other'}: ${(err as Error).message}`;
}
const runtime = (await import('../../../../packages/runtime/src/index.js')) as Record<string, unknown>;
const runtimeLoads = typeof runtime.createIdempotency === 'function';
process.stdout.write(JSON.stringify({ key, explicit, viaGetConfig, runtimeLoads }));
