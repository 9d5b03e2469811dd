/**
 * Lease heartbeat (docs/concepts.md#outcomes). A lease only says "the owner is alive" if the owner keeps saying it:
 * a call that runs longer than `leaseMs` (a 30 s HTTP timeout against a 30 s lease) would otherwise
 * look abandoned, and a retry would take it over and call again. While the wrapped call runs, the
 * owner extends its own lease, fenced by its token; a fenced renewal stops the beat.
 *
 * One shared ticker per interval serves every running call (it fires every half interval; a call is
 * renewed on the second tick after it started or was last renewed, so between half and one interval
 * apart, never later than a timer of its own would). A timer per call cost a setTimeout and a
 * clearTimeout on every call, most of which end long before the first beat (a measurable cost per call).
 * The ticker stops itself on a tick that finds no call running.
 */
export type Renew = () => Promise<boolean>;

export interface Beat {
  renew: Renew;
  /** The tick at which this call's lease is renewed next. */
  due: number;
  inFlight: Promise<unknown> | undefined;
  /** The ticker that runs it (only its set is needed to stop the beat). */
  ticker: { beats: Set<Beat> };
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

/**
 * Starts renewing the lease every `intervalMs` (≤ 0 or not finite: no beat, `undefined`). Split from
 * `withHeartbeat` so the idempotent call's hot path pays no async wrapper of its own.
 */
export function startHeartbeat(renew: Renew, intervalMs: number): Beat | undefined {
  if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) return undefined;
  const t = tickerFor(intervalMs);
  const b: Beat = { renew, due: t.ticks + 2, inFlight: undefined, ticker: t };
  t.beats.add(b);
  return b;
}

/**
 * Stops the beat. A renewal still in flight must land before the caller settles the row (markUnknown
 * expires the lease on purpose; a late renewal would extend it again): await what this returns, if anything.
 */
export function stopHeartbeat(b: Beat | undefined): Promise<unknown> | undefined {
  if (b === undefined) return undefined;
  b.ticker.beats.delete(b);
  return b.inFlight;
}

/** Runs `work` while renewing the lease every `intervalMs`; `intervalMs` ≤ 0 disables the beat. */
export async function withHeartbeat<T>(renew: Renew, intervalMs: number, work: () => Promise<T>): Promise<T> {
  const b = startHeartbeat(renew, intervalMs);
  if (b === undefined) return work();
  try {
    return await work();
  } finally {
    const landing = stopHeartbeat(b);
    if (landing !== undefined) await landing;
  }
}
