import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const AGENT = fileURLToPath(new URL('./case1-agent.ts', import.meta.url));

interface AgentEvent {
  event: string;
  [field: string]: unknown;
}

export interface AgentRun {
  events: AgentEvent[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

export interface AgentRunOptions {
  env: Record<string, string>;
  /** SIGKILL the process when this event is printed (a crash at a known point). */
  killOnEvent?: string;
  /** Or SIGKILL it when this promise settles (e.g. the provider received the request). */
  killWhen?: Promise<unknown>;
}

/** Runs the Case 1 agent as a separate Node process (tsx loader), the way a deployment restarts it. */
export function runAgent(options: AgentRunOptions): Promise<AgentRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', AGENT], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: AgentEvent[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const event = JSON.parse(line) as AgentEvent;
    events.push(event);
    if (event.event === options.killOnEvent) child.kill('SIGKILL');
  });
  void options.killWhen?.then(() => child.kill('SIGKILL'));
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve({ events, code, signal, stderr }));
  });
}
