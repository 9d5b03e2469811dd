/**
 * Phase timers for profiling `generate` (`IDEMGEN_TIMING=1`): each phase's wall time and the process's
 * RSS after it, on stderr (CPU time too: on a shared machine it is the steadier number). Off by default and free when off (one env read per run).
 */
const enabled = (): boolean => process.env.IDEMGEN_TIMING === '1';

/** Runs `fn`, and when timing is on reports how long it took under `label`. */
export function timed<T>(label: string, fn: () => T): T {
  if (!enabled()) return fn();
  const start = performance.now();
  const cpu = process.cpuUsage();
  const out = fn();
  report(label, start, cpu);
  return out;
}

/** The async form of `timed` (awaits `fn` before reporting). */
export async function timedAsync<T>(label: string, fn: () => Promise<T>): Promise<T> {
  if (!enabled()) return fn();
  const start = performance.now();
  const cpu = process.cpuUsage();
  const out = await fn();
  report(label, start, cpu);
  return out;
}

function report(label: string, start: number, cpuStart: NodeJS.CpuUsage): void {
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const mem = process.memoryUsage();
  const rss = mem.rss / 2 ** 20;
  process.stderr.write(
    `[timing] ${label.padEnd(16)} ${(ms / 1000).toFixed(2).padStart(7)} s  cpu ${cpuS.toFixed(2).padStart(6)} s  rss ${rss.toFixed(0)} MiB  heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB\n`,
  );
}
