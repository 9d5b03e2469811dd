/**
 * Private database servers a test may kill (SIGKILL by pid) and start again on the same data: the shared
 * servers of the global setup (test/setup/services.ts) serve every test file at once, so a store-down test
 * must never touch them. Each server is recorded for the leftover sweep (test/setup/leftovers.ts) while it
 * lives. Redis runs with `appendfsync always`, so a row written before the kill is there after the restart.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetServer, recordServer, type ServerRecord } from '../setup/leftovers.js';
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

/**
 * What every killable server shares: `launch` starts it on its data and port and returns the pid to kill,
 * `ready` waits until it accepts connections. The pid is recorded as a leftover before waiting, so a server
 * that never comes up is still stopped by the next run.
 */
async function killable(o: {
  kind: ServerRecord['kind'];
  label: string;
  url: string;
  dir: string;
  port: number;
  launch: () => number;
  ready?: () => Promise<void>;
  /** PostgreSQL: the postmaster's backends are killed with it. */
  withChildren?: boolean;
}): Promise<KillableServer> {
  let record = '';
  const pids = () => (o.withChildren ? [server.pid, ...childrenOf(server.pid)] : [server.pid]);
  const server: KillableServer = {
    url: o.url,
    pid: 0,
    async restart() {
      server.pid = o.launch();
      record = recordServer({ kind: o.kind, owner: process.pid, pid: server.pid, dir: o.dir });
      await o.ready?.();
    },
    async kill() {
      killPids(pids());
      forgetServer(record);
      await until(`${o.label} to go`, async () => !(await listening(o.port)));
    },
    cleanup() {
      killPids(pids());
      forgetServer(record);
      rmSync(o.dir, { recursive: true, force: true });
    },
  };
  await server.restart();
  return server;
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
  return killable({
    kind: 'postgres',
    label: 'PostgreSQL',
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    port,
    withChildren: true,
    launch() {
      // After a SIGKILL the lock files name a dead postmaster (a zombie where nothing reaps it): stale, removed.
      rmSync(join(data, 'postmaster.pid'), { force: true });
      rmSync(join(dir, `.s.PGSQL.${port}.lock`), { force: true });
      const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
      asPostgres(join(pgBin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', 'start', '-o', opts]);
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    },
  });
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
  return killable({
    kind: 'mariadb',
    label: 'MariaDB',
    url: `mysql://root@127.0.0.1:${port}/mysql`,
    dir,
    port,
    launch() {
      const child = spawn(
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
      return child.pid ?? 0;
    },
    ready: () => until('MariaDB to listen', () => listening(port)),
  });
}

export async function killableRedis(): Promise<KillableServer> {
  const [bin] = provision([REDIS], realHost()) as [string];
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-killredis-'));
  const port = await freePort();
  return killable({
    kind: 'redis',
    label: 'Redis',
    url: `redis://127.0.0.1:${port}`,
    dir,
    port,
    launch() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
      const durable = ['--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'];
      const child = spawn(bin, [...args, ...durable, '--logfile', join(dir, 'log')], { stdio: 'ignore' });
      return child.pid ?? 0;
    },
    ready: () => until('Redis to listen', () => listening(port)),
  });
}
