/**
 * Lease heartbeat (DESIGN §5). A lease only says "the owner is alive" if the owner keeps saying it:
 * a call that runs longer than `leaseMs` (a 30 s HTTP timeout against a 30 s lease) would otherwise
 * look abandoned, and a retry would take it over and call again. While the wrapped call runs, the
 * owner extends its own lease, fenced by its token; a fenced renewal stops the beat.
 *
 * One shared ticker per interval serves every running call (it fires every half interval; a call is
 * renewed on the second tick after it started or was last renewed, so between half and one interval
 * apart, never later than a timer of its own would). A timer per call cost a setTimeout and a
 * clearTimeout on every call, most of which end long before the first beat (issue 17's per-call cost).
 * The ticker stops itself on a tick that finds no call running.
 */
export type Renew = () => Promise<boolean>;

interface Beat {
  renew: Renew;
  /** The tick at which this call's lease is renewed next. */
  due: number;
  inFlight: Promise<unknown> | undefined;
}

interface Ticker {
  beats: Set<Beat>;
  ticks: number;
  timer: ReturnType<typeof setInterval>;
}

const tickers = new Map<number, Ticker>();

function beat(t: Ticker, b: Beat): void {
  b.inFlight = b.renew().then(
    (ok) => {
      b.inFlight = undefined;
      if (ok) b.due = t.ticks + 2;
      else t.beats.delete(b); // fenced: another attempt owns the row now
    },
    () => {
      b.inFlight = undefined;
      b.due = t.ticks + 2; // a transient store error: try again on the next beat
    },
  );
}

function tickerFor(intervalMs: number): Ticker {
  const known = tickers.get(intervalMs);
  if (known) return known;
  const t: Ticker = {
    beats: new Set(),
    ticks: 0,
    timer: setInterval(() => {
      t.ticks++;
      if (t.beats.size === 0) {
        clearInterval(t.timer);
        tickers.delete(intervalMs);
        return;
      }
      for (const b of t.beats) if (b.inFlight === undefined && b.due <= t.ticks) beat(t, b);
    }, intervalMs / 2),
  };
  t.timer.unref?.(); // never keep a process alive for a heartbeat
  tickers.set(intervalMs, t);
  return t;
}

/** Runs `work` while renewing the lease every `intervalMs`; `intervalMs` ≤ 0 disables the beat. */
export async function withHeartbeat<T>(renew: Renew, intervalMs: number, work: () => Promise<T>): Promise<T> {
  if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) return work();
  const t = tickerFor(intervalMs);
  const b: Beat = { renew, due: t.ticks + 2, inFlight: undefined };
  t.beats.add(b);
  try {
    return await work();
  } finally {
    t.beats.delete(b);
    // A renewal still in flight must land before the caller settles the row (markUnknown expires the
    // lease on purpose; a late renewal would extend it again).
    if (b.inFlight !== undefined) await b.inFlight;
  }
}
