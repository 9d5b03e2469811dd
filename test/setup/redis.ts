/**
 * A throwaway redis-server for the global setup: no config file, no persistence to the working
 * directory (its own temp dir), 127.0.0.1 on a free port, killed and removed afterwards. Debian's
 * `redis-server` package; `valkey-server` takes the same flags (IDEMGEN_REDIS_SERVER=/usr/bin/valkey-server).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetServer, recordServer } from './leftovers.js';

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

/** `bin` was located (or installed) by provision.ts. The pid is recorded so a killed run's server is stopped next time. */
export async function startRedis(
  freePort: () => Promise<number>,
  bin: string,
): Promise<{ url: string; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-redis-'));
  const port = await freePort();
  const child = spawn(
    bin,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'no',
      '--logfile',
      join(dir, 'log'),
    ],
    { stdio: 'ignore' },
  );
  const record = recordServer({ kind: 'redis', owner: process.pid, pid: child.pid ?? 0, dir });
  const deadline = Date.now() + 30_000;
  while (!(await ping(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}; see ${dir}/log`);
    if (Date.now() > deadline) throw new Error(`redis-server did not answer PING on ${port}; see ${dir}/log`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      forgetServer(record);
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
