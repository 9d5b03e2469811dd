/**
 * CPU time of one thread, from Linux's /proc (`utime` + `stime`, fields 14 and 15 of `stat`, in the
 * 100 Hz ticks /proc reports). Wall time is not CPU time when threads outnumber cores: eight scripts on
 * two cores would each be charged four times what they used. Elsewhere (no /proc) the callers fall back
 * to wall time spent running.
 */
import { readFileSync, readlinkSync } from 'node:fs';

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
