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

export async function startRedis(
  freePort: () => Promise<number>, requireBinary: (path: string, what: string) => void, bin: string,
): Promise<{ url: string; stop: () => void }> {
  requireBinary(bin, 'redis-server (apt-get install -y redis-server)');
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-redis-'));
  const port = await freePort();
  const child = spawn(bin, [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no',
    '--maxmemory-policy', 'noeviction', '--daemonize', 'no', '--logfile', join(dir, 'log'),
  ], { stdio: 'ignore' });
  const deadline = Date.now() + 30_000;
  while (!(await ping(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}; see ${dir}/log`);
    if (Date.now() > deadline) throw new Error(`redis-server did not answer PING on ${port}; see ${dir}/log`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
