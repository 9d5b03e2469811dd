/**
 * Pid files for the throwaway database servers, so a test run that was killed (Ctrl-C twice, OOM, a CI
 * timeout) does not leave them running: each run records its servers under one folder, and the next run
 * stops the servers of runs whose vitest process is gone. A live run's servers are left alone (several
 * runs may share a machine).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServerRecord {
  kind: 'postgres' | 'mariadb' | 'redis';
  /** The vitest process that started it. */
  owner: number;
  /** The server's own pid (the postmaster or mariadbd). */
  pid: number;
  /** Its temporary folder (data, socket, log), removed with it. */
  dir: string;
}

/** Read on every call so a test can point it elsewhere. */
const pidDir = (): string => process.env.IDEMGEN_TEST_PID_DIR ?? join(tmpdir(), 'idemgen-test-servers');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A pid may be reused: only a process whose command line names the server it should be is stopped. */
function isServer(rec: ServerRecord): boolean {
  try {
    const cmd = readFileSync(`/proc/${rec.pid}/cmdline`, 'utf8');
    return rec.kind === 'postgres'
      ? /postgres/.test(cmd)
      : rec.kind === 'redis'
        ? /redis-server|valkey-server/.test(cmd)
        : /mariadbd|mysqld/.test(cmd);
  } catch {
    return false;
  }
}

export function recordServer(rec: ServerRecord): string {
  mkdirSync(pidDir(), { recursive: true });
  const file = join(pidDir(), `${rec.kind}-${rec.owner}-${rec.pid}.json`);
  writeFileSync(file, JSON.stringify(rec));
  return file;
}

export function forgetServer(file: string): void {
  rmSync(file, { force: true });
}

/** Stops and removes the servers of dead runs; returns what it stopped. */
export function stopLeftovers(): ServerRecord[] {
  const dir = pidDir();
  if (!existsSync(dir)) return [];
  const stopped: ServerRecord[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const file = join(dir, name);
    let rec: ServerRecord;
    try {
      rec = JSON.parse(readFileSync(file, 'utf8')) as ServerRecord;
    } catch {
      unlinkSync(file);
      continue;
    }
    if (alive(rec.owner)) continue;
    if (isServer(rec)) {
      try {
        // SIGQUIT is PostgreSQL's immediate shutdown (the postmaster takes its backends down with it).
        process.kill(rec.pid, rec.kind === 'postgres' ? 'SIGQUIT' : 'SIGKILL');
      } catch {
        // already gone between the check and the kill
      }
      stopped.push(rec);
    }
    rmSync(rec.dir, { recursive: true, force: true });
    unlinkSync(file);
  }
  return stopped;
}
