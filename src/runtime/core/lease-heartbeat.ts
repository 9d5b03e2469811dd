/**
 * Lease heartbeat (DESIGN §5). A lease only says "the owner is alive" if the owner keeps saying it:
 * a call that runs longer than `leaseMs` (a 30 s HTTP timeout against a 30 s lease) would otherwise
 * look abandoned, and a retry would take it over and call again. While the wrapped call runs, the
 * owner extends its own lease every interval, fenced by its token; a fenced renewal stops the beat.
 */
export type Renew = () => Promise<boolean>;

/** Runs `work` while renewing the lease every `intervalMs`; `intervalMs` ≤ 0 disables the beat. */
export async function withHeartbeat<T>(renew: Renew, intervalMs: number, work: () => Promise<T>): Promise<T> {
  if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) return work();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  const tick = (): void => {
    inFlight = renew().then(
      (ok) => ok && schedule(),
      () => schedule(), // a transient store error: try again on the next beat
    );
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(tick, intervalMs);
    timer.unref?.(); // never keep a process alive for a heartbeat
  };
  schedule();
  try {
    return await work();
  } finally {
    stopped = true;
    clearTimeout(timer);
    // A renewal still in flight must land before the caller settles the row (markUnknown expires the
    // lease on purpose; a late renewal would extend it again).
    await inFlight;
  }
}
