/**
 * CPU time of one thread, from Linux's /proc (`utime` + `stime`, fields 14 and 15 of `stat`, in the
 * 100 Hz ticks /proc reports). Wall time is not CPU time when threads outnumber cores: eight scripts on
 * two cores would each be charged four times what they used. Elsewhere (no /proc) the callers fall back
 * to wall time spent running.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

const TICK_MS = 10;

/** `/proc/<pid>/task/<tid>/stat` of the calling thread, or undefined without /proc. */
export function ownThreadStat(): string | undefined {
  try {
    return `/proc/${readlinkSync('/proc/thread-self')}/stat`;
  } catch {
    return undefined;
  }
}

/** The thread's CPU time in ms, or undefined once the file cannot be read (the thread ended). */
export function threadCpuMs(statPath: string): number | undefined {
  try {
    const text = readFileSync(statPath, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/**
 * Lowers the calling thread's scheduling priority (Linux: setpriority on a thread id acts on that thread
 * alone). A script that keeps its thread busy then yields the cores to the server's own thread, which
 * keeps answering other requests. Best effort: elsewhere nothing changes.
 */
export function lowerOwnPriority(statPath: string | undefined, nice: number): void {
  const tid = /task\/(\d+)\/stat$/.exec(statPath ?? '')?.[1];
  if (tid === undefined) return;
  try {
    setPriority(Number(tid), nice);
  } catch {
    // Not permitted or not supported: the thread keeps the normal priority.
  }
}
