/**
 * Which request fails how: the one fault vocabulary of the test fault server (DESIGN §7). A fault
 * either strikes before the side effect commits (`drop`, `reject`, `delay` then commit) or after it
 * (`reset`, `status`, `stall`) — the second kind is the ambiguous outcome that makes retries dangerous.
 */
export type Fault =
  | { kind: 'drop' } // destroy the socket before any commit (a request that never landed)
  | { kind: 'reject'; status: number; headers?: Record<string, string>; body?: unknown } // answer before any commit
  | { kind: 'delay'; ms: number } // slow processing, then commit and answer normally
  | { kind: 'reset' } // commit, then destroy the socket
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown } // commit, then answer this
  | { kind: 'stall'; ms?: number }; // commit, then answer only after `ms` (default: never; closed on shutdown)

/**
 * The plan: a queue (the n-th request takes the n-th queued fault) and an optional standing fault for
 * every request once the queue is empty (a provider that hangs, a network that drops everything).
 */
export class FaultPlan {
  private readonly queue: Fault[] = [];
  private standing: Fault | undefined;

  /** Queue faults; each request takes the next one. */
  enqueue(...faults: Fault[]): this {
    this.queue.push(...faults);
    return this;
  }

  /** Every later request (after the queue) gets `fault`; `undefined` heals the server. */
  always(fault: Fault | undefined): this {
    this.standing = fault;
    return this;
  }

  /** The fault for the request arriving now (consumes a queued one). */
  take(): Fault | undefined {
    return this.queue.shift() ?? this.standing;
  }
}
