/**
 * SOP Case 1 agent as its own process, for the restart test: a persistent SqliteSaver checkpointer
 * and the SQLite dedup store, both on disk. Usage (env): CASE1_DIR, CASE1_PROVIDER, CASE1_THREAD,
 * CASE1_MODE=start|approve|continue, CASE1_PAUSE=before-send|after-send (sleeps there so the parent
 * can SIGKILL it), CASE1_LEASE_MS, CASE1_DURABILITY=sync|async (default sync).
 * Prints one JSON line per event on stdout.
 */
import { join } from 'node:path';
import { Command } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { createSqliteStore } from '../../../../packages/runtime/src/store/sqlite.js';
import { buildCase1Graph } from './case1-graph.js';

function emit(event: string, data: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event, ...data })}\n`);
}

function pauseAt(point: string): () => Promise<void> {
  return async () => {
    emit(point);
    if (process.env.CASE1_PAUSE === point) await new Promise((resolve) => setTimeout(resolve, 60_000));
  };
}

async function main(): Promise<void> {
  const dir = process.env.CASE1_DIR!;
  const store = createSqliteStore({ filename: join(dir, 'dedup.sqlite') });
  const checkpointer = SqliteSaver.fromConnString(join(dir, 'checkpoints.sqlite'));
  const graph = buildCase1Graph({
    store,
    checkpointer,
    providerUrl: process.env.CASE1_PROVIDER!,
    leaseMs: Number(process.env.CASE1_LEASE_MS ?? 30_000),
    hooks: { beforeSend: pauseAt('before-send'), afterSend: pauseAt('after-send') },
  });
  const durability = process.env.CASE1_DURABILITY === 'async' ? ('async' as const) : ('sync' as const);
  const config = { configurable: { thread_id: process.env.CASE1_THREAD! }, durability };
  const mode = process.env.CASE1_MODE;
  try {
    const out =
      mode === 'start'
        ? await graph.invoke(
            { ticket: { from: 'alice@example.com', text: 'I was charged twice, please refund' } },
            config,
          )
        : mode === 'approve'
          ? await graph.invoke(new Command({ resume: 'approve' }), config)
          : await graph.invoke(null, config);
    emit('done', { state: out });
  } catch (err) {
    emit('error', { name: (err as Error).name, message: (err as Error).message });
    process.exitCode = 3;
  } finally {
    await store.close();
  }
}

await main();
