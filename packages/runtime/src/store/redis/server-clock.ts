/**
 * The Redis server's clock between script calls. Every script on the server's clock returns the `TIME`
 * it read; the store keeps the last one with the monotonic time it arrived and extrapolates from it, so
 * the claim's `SET NX GET` (no script, plain-claim.ts) can write the server's times without asking. The
 * application's wall clock plays no part: skewed or stepped by NTP, it changes nothing. The estimate
 * trails the server by at most half a round trip (the reading is taken inside the script); a reading
 * older than `maxAgeMs` (an idle store) is not used, and the claim goes through the CLAIM_ROW script,
 * which reads `TIME` itself and refreshes it (so does a held completion's script). Leases and expiry are
 * still decided inside the scripts on `TIME` (takeover, renewal, listing, the fence of a completion); only
 * a fresh row's times and a held completion's two times come from here, as a `TIME` read a moment
 * earlier would. Under steady traffic one claim in every 10 s pays for a script.
 */
export interface ServerClock {
  /** A `TIME` reading (epoch ms) a script just returned. */
  saw(serverMs: number): void;
  /** The server's now by extrapolation, or undefined when there is no recent reading. */
  now(): number | undefined;
}

export function createServerClock(maxAgeMs = 10_000): ServerClock {
  let server = 0;
  let at = Number.NEGATIVE_INFINITY;
  return {
    saw(serverMs) {
      server = serverMs;
      at = performance.now();
    },
    now() {
      const age = performance.now() - at;
      return age <= maxAgeMs ? Math.floor(server + age) : undefined;
    },
  };
}
