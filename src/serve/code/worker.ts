/**
 * A sandbox worker thread: loads QuickJS (from the module the host compiled), says `ready`, runs exactly
 * one script and reports its end. The host stops the thread when a budget runs out, whatever the script
 * is doing (a long built-in call included), and never reuses it: each run gets a fresh thread and engine.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CallAnswer, RunRequest, WorkerMessage } from './protocol.js';
import { quickjs, runInSandbox, type HostAnswer } from './sandbox.js';
import { lowerOwnPriority, ownThreadStat, threadCpuMs } from './thread-cpu.js';

/** The nice value of a sandbox thread: under contention the server's own thread runs first. */
const SANDBOX_NICE = 5;

const port = parentPort;
if (port !== null) {
  const { wasm } = workerData as { wasm?: WebAssembly.Module };
  const stat = ownThreadStat();
  lowerOwnPriority(stat, SANDBOX_NICE);
  const module = await quickjs(wasm);
  port.once('message', (request: RunRequest) => {
    const out = request.port;
    const send = (m: WorkerMessage): void => out.postMessage(m);
    const waiting = new Map<number, (answer: HostAnswer) => void>();
    out.on('message', (m: CallAnswer) => {
      waiting.get(m.id)?.(m.answer);
      waiting.delete(m.id);
    });
    let next = 0;
    const host = (tool: string, args: string): Promise<HostAnswer> =>
      new Promise((resolve) => {
        next += 1;
        waiting.set(next, resolve);
        send({ kind: 'call', id: next, tool, args });
      });
    void runInSandbox(request.code, request.names, host, request.limits, {
      module,
      onPhase: (phase) => send({ kind: 'phase', phase }),
      ...(stat === undefined ? {} : { cpuClock: () => threadCpuMs(stat) ?? Number.POSITIVE_INFINITY }),
    }).then((result) => send({ kind: 'done', result }));
  });
  port.postMessage({ stat });
}
