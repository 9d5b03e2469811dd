/**
 * Private database servers a test may kill (SIGKILL by pid) and start again on the same data: the shared
 * servers of the global setup (test/setup/services.ts) serve every test file at once, so a store-down test
 * must never touch them. Each server is recorded for the leftover sweep (test/setup/leftovers.ts) while it
 * lives. Redis runs with `appendfsync always`, so a row written before the kill is there after the restart.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetServer, recordServer } from '../setup/leftovers.js';
import { MARIADB, POSTGRES, REDIS, provision, realHost } from '../setup/provision.js';

export interface KillableServer {
  url: string;
  pid: number;
  /** SIGKILL by pid (PostgreSQL: the postmaster and each of its backends), then wait until the port is closed. */
  kill(): Promise<void>;
  /** Start again on the same data and port. */
  restart(): Promise<void>;
  cleanup(): void;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** A TCP server that accepts and never answers: what a hung (SIGSTOPped, black-holed) store looks like. */
export async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const srv: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const addr = srv.address();
  if (typeof addr !== 'object' || addr === null) throw new Error('no port');
  return {
    port: addr.port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        srv.close(() => r());
      }),
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function killPids(pids: number[]): void {
  for (const p of pids) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function asPostgres(cmd: string, args: string[]): void {
  if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' });
  else execFileSync(cmd, args, { stdio: 'pipe' });
}

export async function killablePostgres(): Promise<KillableServer> {
  const [pgBin] = provision([POSTGRES], realHost()) as [string];
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-killpg-'));
  chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  asPostgres(join(pgBin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  let record = '';
  const server: KillableServer = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: 0,
    async restart() {
      // After a SIGKILL the lock files name a dead postmaster (a zombie where nothing reaps it): stale, removed.
      rmSync(join(data, 'postmaster.pid'), { force: true });
      rmSync(join(dir, `.s.PGSQL.${port}.lock`), { force: true });
      const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
      asPostgres(join(pgBin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', 'start', '-o', opts]);
      server.pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      record = recordServer({ kind: 'postgres', owner: process.pid, pid: server.pid, dir });
    },
    async kill() {
      killPids([server.pid, ...childrenOf(server.pid)]);
      forgetServer(record);
      await until('PostgreSQL to go', async () => !(await listening(port)));
    },
    cleanup() {
      killPids([server.pid, ...childrenOf(server.pid)]);
      forgetServer(record);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.restart();
  return server;
}

export async function killableMariadb(): Promise<KillableServer> {
  const [mariadbd] = provision([MARIADB], realHost()) as [string];
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-killmy-'));
  const data = join(dir, 'data');
  const port = await freePort();
  execFileSync(
    'mariadb-install-db',
    [`--datadir=${data}`, '--user=root', '--auth-root-authentication-method=normal', '--skip-test-db'],
    { stdio: 'pipe', env: { ...process.env, TMPDIR: dir } },
  );
  let child: ChildProcess | undefined;
  let record = '';
  const server: KillableServer = {
    url: `mysql://root@127.0.0.1:${port}/mysql`,
    pid: 0,
    async restart() {
      child = spawn(
        mariadbd,
        [
          '--no-defaults',
          `--datadir=${data}`,
          '--user=root',
          `--port=${port}`,
          '--bind-address=127.0.0.1',
          `--socket=${join(dir, 'sock')}`,
          `--log-error=${join(dir, 'err.log')}`,
          `--tmpdir=${dir}`,
          '--skip-name-resolve',
          '--innodb-flush-log-at-trx-commit=1',
        ],
        { stdio: 'ignore' },
      );
      server.pid = child.pid ?? 0;
      record = recordServer({ kind: 'mariadb', owner: process.pid, pid: server.pid, dir });
      await until('MariaDB to listen', () => listening(port));
    },
    async kill() {
      killPids([server.pid]);
      forgetServer(record);
      await until('MariaDB to go', async () => !(await listening(port)));
    },
    cleanup() {
      killPids([server.pid]);
      forgetServer(record);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.restart();
  return server;
}

export async function killableRedis(): Promise<KillableServer> {
  const [bin] = provision([REDIS], realHost()) as [string];
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-killredis-'));
  const port = await freePort();
  let record = '';
  const server: KillableServer = {
    url: `redis://127.0.0.1:${port}`,
    pid: 0,
    async restart() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
      const durable = ['--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'];
      const child = spawn(bin, [...args, ...durable, '--logfile', join(dir, 'log')], { stdio: 'ignore' });
      server.pid = child.pid ?? 0;
      record = recordServer({ kind: 'redis', owner: process.pid, pid: server.pid, dir });
      await until('Redis to listen', () => listening(port));
    },
    async kill() {
      killPids([server.pid]);
      forgetServer(record);
      await until('Redis to go', async () => !(await listening(port)));
    },
    cleanup() {
      killPids([server.pid]);
      forgetServer(record);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.restart();
  return server;
}
