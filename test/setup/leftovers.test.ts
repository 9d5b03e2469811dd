import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { recordServer, stopLeftovers } from './leftovers.js';

it('a killed run’s servers are stopped by the next run; a live run’s are left alone', async () => {
  const pidDir = mkdtempSync(join(tmpdir(), 'idemgen-pids-'));
  process.env.IDEMGEN_TEST_PID_DIR = pidDir;
  // Stand-ins named like the servers (the pid check reads /proc/<pid>/cmdline): `exec -a mariadbd sleep`.
  const server = spawn('bash', ['-c', 'exec -a mariadbd sleep 60'], { stdio: 'ignore' });
  const deadOwner = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => deadOwner.on('exit', r));
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-mysql-leftover-'));
  recordServer({ kind: 'mariadb', owner: deadOwner.pid!, pid: server.pid!, dir });
  const liveDir = mkdtempSync(join(tmpdir(), 'idemgen-mysql-live-'));
  recordServer({ kind: 'mariadb', owner: process.pid, pid: server.pid!, dir: liveDir });

  const exited = new Promise((r) => server.on('exit', (_code, signal) => r(signal)));
  const stopped = stopLeftovers();
  expect(stopped.map((s) => s.pid)).toEqual([server.pid]);
  expect(await exited).toBe('SIGKILL');
  expect(existsSync(dir)).toBe(false);
  expect(existsSync(liveDir)).toBe(true);
  expect(readdirSync(pidDir)).toEqual([`mariadb-${process.pid}-${server.pid}.json`]);
  delete process.env.IDEMGEN_TEST_PID_DIR;
});

it('a reused pid whose process is not a database server is not killed', async () => {
  const pidDir = mkdtempSync(join(tmpdir(), 'idemgen-pids-'));
  process.env.IDEMGEN_TEST_PID_DIR = pidDir;
  const bystander = spawn('sleep', ['60'], { stdio: 'ignore' });
  recordServer({
    kind: 'postgres',
    owner: 2 ** 22 + 1,
    pid: bystander.pid!,
    dir: mkdtempSync(join(tmpdir(), 'idemgen-pg-x-')),
  });
  expect(stopLeftovers()).toEqual([]);
  expect(bystander.exitCode).toBeNull();
  expect(readdirSync(pidDir)).toEqual([]);
  bystander.kill();
  delete process.env.IDEMGEN_TEST_PID_DIR;
});
