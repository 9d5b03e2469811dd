/**
 * `idemgen serve --http` as a child process, from source (or `built`: bin/idemgen.js, which runs the CLI bundle):
 * waits for its start-up line and returns the URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from '../helpers/cli.js';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop: () => Promise<void>;
}

export function spawnServe(
  args: string[],
  env: Record<string, string> = {},
  { built = false }: { built?: boolean } = {},
): Promise<ServeProcess> {
  const entry = built ? ['bin/idemgen.js'] : ['--import', 'tsx', 'test/helpers/idemgen-src.ts'];
  const child = spawn(process.execPath, [...entry, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`serve did not start within 60 s:\n${err}`));
    }, 60_000);
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /at (http:\/\/\S+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1] as string, child, stderr: () => err, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${err}`));
    });
  });
}
