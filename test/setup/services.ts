/**
 * Vitest global setup: starts the real servers the tests use — a throwaway PostgreSQL (≥ 15) cluster, a
 * throwaway MariaDB server and a throwaway redis-server — each in a temporary directory on a free port,
 * and stops them afterwards. A missing server is installed from apt on Debian as root, else the run stops
 * with one line naming what to install (test/setup/provision.ts) — never a silent skip. Servers left by a
 * killed run are stopped first (test/setup/leftovers.ts). Tests read the URLs with `inject('pgUrl')` /
 * `inject('mysqlUrl')` / `inject('redisUrl')`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { forgetServer, recordServer, stopLeftovers } from './leftovers.js';
import { CHROMIUM, MARIADB, POSTGRES, REDIS, provision, realHost } from './provision.js';
import { startRedis } from './redis.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    mysqlUrl: string;
    redisUrl: string;
    /** Where the Chromium the browser tests drive is (/usr/bin/chromium, or IDEMGEN_CHROMIUM). */
    chromium: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function runAsPostgres(cmd: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' });
  else execFileSync(cmd, args, { stdio: 'pipe' });
}

async function startPostgres(pgBin: string): Promise<{ url: string; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-pg-'));
  chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  runAsPostgres(join(pgBin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  runAsPostgres(join(pgBin, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-t',
    '60',
    'start',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off`,
  ]);
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const record = recordServer({ kind: 'postgres', owner: process.pid, pid: postmaster, dir });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      forgetServer(record);
      try {
        runAsPostgres(join(pgBin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function waitForMysql(port: number, child: ChildProcess, dir: string): Promise<void> {
  const mysql = await import('mysql2/promise');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mariadbd exited with ${child.exitCode}; see ${dir}/err.log`);
    try {
      const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
      await conn.query('CREATE DATABASE IF NOT EXISTS idemgen_test');
      await conn.end();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function startMariadb(mariadbd: string): Promise<{ url: string; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-mysql-'));
  const data = join(dir, 'data');
  const port = await freePort();
  execFileSync(
    'mariadb-install-db',
    [
      `--datadir=${data}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
    ],
    { stdio: 'pipe', env: { ...process.env, TMPDIR: dir } },
  );
  const child = spawn(
    mariadbd,
    [
      '--no-defaults',
      `--datadir=${data}`,
      '--user=root',
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, 'sock')}`,
      `--pid-file=${join(dir, 'pid')}`,
      `--log-error=${join(dir, 'err.log')}`,
      `--tmpdir=${dir}`,
      '--skip-name-resolve',
      '--max-connections=400',
      '--innodb-flush-log-at-trx-commit=0',
    ],
    { stdio: 'ignore' },
  );
  const record = recordServer({ kind: 'mariadb', owner: process.pid, pid: child.pid ?? 0, dir });
  await waitForMysql(port, child, dir);
  return {
    url: `mysql://root@127.0.0.1:${port}/idemgen_test`,
    stop: () => {
      forgetServer(record);
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject): Promise<() => void> {
  stopLeftovers();
  const [pgBin, mariadbd, redisServer, chromium] = provision([POSTGRES, MARIADB, REDIS, CHROMIUM], realHost());
  const [pg, my, redis] = await Promise.all([
    startPostgres(pgBin),
    startMariadb(mariadbd),
    startRedis(freePort, redisServer),
  ]);
  project.provide('pgUrl', pg.url);
  project.provide('mysqlUrl', my.url);
  project.provide('redisUrl', redis.url);
  project.provide('chromium', chromium!);
  process.env.IDEMGEN_TEST_PG_URL = pg.url;
  process.env.IDEMGEN_TEST_MYSQL_URL = my.url;
  process.env.IDEMGEN_TEST_REDIS_URL = redis.url;
  return () => {
    pg.stop();
    my.stop();
    redis.stop();
  };
}
