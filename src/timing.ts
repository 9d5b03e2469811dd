/**
 * Phase timers for profiling `generate` (`IDEMGEN_TIMING=1`): each phase's wall time and the process's
 * RSS after it, on stderr. Off by default and free when off (one env read per run).
 */
const enabled = (): boolean => process.env['IDEMGEN_TIMING'] === '1';

/** Runs `fn`, and when timing is on reports how long it took under `label`. */
export function timed<T>(label: string, fn: () => T): T {
  if (!enabled()) return fn();
  const start = performance.now();
  const out = fn();
  report(label, start);
  return out;
}

/** The async form of `timed` (awaits `fn` before reporting). */
export async function timedAsync<T>(label: string, fn: () => Promise<T>): Promise<T> {
  if (!enabled()) return fn();
  const start = performance.now();
  const out = await fn();
  report(label, start);
  return out;
}

function report(label: string, start: number): void {
  const ms = performance.now() - start;
  const rss = process.memoryUsage.rss() / 2 ** 20;
  process.stderr.write(`[timing] ${label.padEnd(16)} ${(ms / 1000).toFixed(2).padStart(7)} s  rss ${rss.toFixed(0)} MiB\n`);
}
