/**
 * The host side of the sandbox threads. Each run gets a worker thread of its own (worker.ts) with a heap
 * cap, taken from a small pool of threads that have QuickJS loaded already, and the host keeps the clock:
 * it reads the thread's own CPU time (thread-cpu.ts; elsewhere, the time the thread reported its engine
 * running) and terminates the thread once that passes the CPU budget (plus a grace for the engine's own
 * check to answer first) or the run passes its wall budget. A single built-in call that never reaches an
 * interrupt check (a big-integer `toString`) is stopped all the same, and the server's own thread is
 * never the one that is busy. A stopped or finished thread is never reused.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type ResourceLimits } from 'node:worker_threads';
import type { CallAnswer, RunRequest, WorkerMessage } from './protocol.js';
import {
  internalError,
  RUNNING_WALL_FACTOR,
  type HostAnswer,
  type HostCall,
  type SandboxLimits,
  type SandboxResult,
} from './sandbox.js';
import { threadCpuMs } from './thread-cpu.js';
import { CODE_ROOT } from '../../package-files.js';

/** A started thread with QuickJS loaded; `stat`: its /proc stat file (its CPU clock), where there is one. */
interface Sandbox {
  worker: Worker;
  stat: string | undefined;
}

/** V8 heap of one sandbox thread; QuickJS's own heap is capped separately (SandboxLimits.memoryBytes). */
const WORKER_RESOURCES: ResourceLimits = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8, stackSizeMb: 1 };
/** Threads kept started with QuickJS loaded, so a run does not wait for one. */
const WARM_WORKERS = 2;
/** How long past its CPU budget the host lets a thread run before terminating it. */
const GRACE_MS = 500;
/** How often the host looks at the clock of a running thread. */
const TICK_MS = 50;

let wasm: Promise<WebAssembly.Module> | undefined;
const warm: Promise<Sandbox>[] = [];

function compiled(): Promise<WebAssembly.Module> {
  wasm ??= readFile(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')).then((bytes) =>
    WebAssembly.compile(bytes),
  );
  return wasm;
}

/** From the sources (tsx, the tests) the worker is TypeScript and needs the loader; built, it is plain JS. */
function newWorker(module: WebAssembly.Module): Worker {
  const options = { workerData: { wasm: module }, resourceLimits: WORKER_RESOURCES };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('serve/code/worker.js', CODE_ROOT), options);
  const entry = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  return new Worker(`import('tsx/esm/api').then((m) => { m.register(); return import(${entry}); });`, {
    ...options,
    eval: true,
  });
}

async function spawn(): Promise<Sandbox> {
  const worker = newWorker(await compiled());
  worker.unref();
  const { stat } = await new Promise<{ stat?: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the sandbox thread exited (${code}) before it was ready`)));
  });
  worker.removeAllListeners();
  return { worker, stat };
}

function refill(): void {
  while (warm.length < WARM_WORKERS) {
    const next = spawn();
    next.catch(() => undefined);
    warm.push(next);
  }
}

/** Compiles QuickJS and starts the warm threads; `serve --code` awaits it so a missing package is a start-up error. */
export async function warmSandbox(): Promise<void> {
  await compiled();
  refill();
  await warm[0];
}

function take(): Promise<Sandbox> {
  const next = warm.shift() ?? spawn();
  refill();
  return next;
}

const failure = (code: 'code_timeout' | 'code_out_of_memory' | 'code_aborted' | 'cancelled', message: string) =>
  ({ ok: false, code, message, logs: [] }) as SandboxResult;

/**
 * `runInSandbox`'s contract, run in a thread of its own. Calls that reach the host after the run ended
 * (queued while the thread was being stopped) are not made.
 */
export async function runInWorker(
  code: string,
  names: readonly string[],
  host: HostCall,
  limits: SandboxLimits,
  signal?: AbortSignal,
): Promise<SandboxResult> {
  let worker: Worker;
  let stat: string | undefined;
  try {
    ({ worker, stat } = await take());
  } catch (err) {
    return failure(
      'code_aborted',
      `The sandbox could not start (${err instanceof Error ? err.message : String(err)}).`,
    );
  }
  worker.ref();
  const { port1, port2 } = new MessageChannel();
  const started = Date.now();
  let spent = 0;
  let runningSince = started;
  let ended = false;
  const cpuAtStart = stat === undefined ? undefined : threadCpuMs(stat);
  /**
   * Whether the run is past its CPU budget (plus the grace): by the thread's own clock, or, without one,
   * by the time its engine was running; with one, also once it has been running RUNNING_WALL_FACTOR times
   * the budget (a thread the machine starves of CPU does not hold its slot for minutes).
   */
  const pastBudget = (now: number): boolean => {
    const running = spent + (runningSince >= 0 ? now - runningSince : 0);
    const cpu = stat === undefined || cpuAtStart === undefined ? undefined : threadCpuMs(stat);
    if (cpu === undefined || cpuAtStart === undefined) return running > limits.cpuMs + GRACE_MS;
    return cpu - cpuAtStart > limits.cpuMs + GRACE_MS || running > limits.cpuMs * RUNNING_WALL_FACTOR + GRACE_MS;
  };
  return new Promise<SandboxResult>((resolve) => {
    const finish = (result: SandboxResult): void => {
      if (ended) return;
      ended = true;
      clearInterval(watchdog);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      // Whatever the thread sent before it stopped is on the port already: calls among it are not made.
      while (receiveMessageOnPort(port1) !== undefined);
      port1.close();
      resolve(result);
    };
    const onAbort = () => finish(failure('cancelled', 'The caller stopped waiting, so the script was stopped.'));
    const watchdog = setInterval(() => {
      const now = Date.now();
      if (pastBudget(now))
        finish(
          failure(
            'code_timeout',
            `The script ran past its ${limits.cpuMs} ms CPU budget inside one operation and its thread was stopped.`,
          ),
        );
      else if (now - started > limits.wallMs + GRACE_MS)
        finish(failure('code_timeout', `The run took longer than ${limits.wallMs} ms and was stopped.`));
    }, TICK_MS);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) return onAbort();
    port1.on('message', (m: WorkerMessage) => {
      if (ended) return;
      if (m.kind === 'phase') {
        const now = Date.now();
        if (m.phase === 'wait' && runningSince >= 0) spent += now - runningSince;
        runningSince = m.phase === 'run' ? now : -1;
      } else if (m.kind === 'done') finish(m.result);
      else
        void host(m.tool, m.args)
          .catch((err: unknown): HostAnswer => ({ ok: false, error: internalError(err) }))
          .then((answer) => {
            if (!ended) port1.postMessage({ kind: 'answer', id: m.id, answer } satisfies CallAnswer);
          });
    });
    worker.on('error', (err: Error & { code?: string }) =>
      finish(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? failure('code_out_of_memory', 'The script used more memory than its thread may hold and was stopped.')
          : failure('code_aborted', `The sandbox thread failed (${err.message}); nothing more of this script ran.`),
      ),
    );
    worker.on('exit', () => finish(failure('code_aborted', 'The sandbox thread ended before the script did.')));
    worker.postMessage({ kind: 'run', code, names: [...names], limits, port: port2 } satisfies RunRequest, [port2]);
  });
}
