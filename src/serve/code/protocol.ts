/** The messages between the host (isolate.ts) and a sandbox worker thread (worker.ts). */
import type { MessagePort } from 'node:worker_threads';
import type { HostAnswer, SandboxLimits, SandboxPhase, SandboxResult } from './sandbox.js';

/** Host → worker, once: the script to run and the port its calls travel on. */
export interface RunRequest {
  kind: 'run';
  code: string;
  names: string[];
  limits: SandboxLimits;
  port: MessagePort;
}

/** Worker → host on the run's port. */
export type WorkerMessage =
  | { kind: 'call'; id: number; tool: string; args: string }
  | { kind: 'phase'; phase: SandboxPhase }
  | { kind: 'done'; result: SandboxResult };

/** Host → worker on the run's port: the answer to call `id`. */
export interface CallAnswer {
  kind: 'answer';
  id: number;
  answer: HostAnswer;
}
