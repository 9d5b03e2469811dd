/**
 * The shape of a conformance vector file (`vectors/*.json`). A file is one group of scenarios; a scenario
 * is a list of steps run in order against a fresh store through `createIdempotency`, the way an
 * application uses a store. Times are real milliseconds: the runner never fakes a clock, because a store
 * may judge leases and expiry by its own clock (PostgreSQL `now()`, Redis `TIME`).
 *
 * Keys in a scenario are labels: the runner makes each into a valid, unique key
 * (`<label>-<run id>`, padded to 16 characters or to `keyLength`), so runs never see each other's rows;
 * `rawKey` passes a key through untouched (key validation).
 */
import type { StoreMechanism } from '../store/types.js';

/** What a scenario needs beyond the nine-method `DedupStore`. Missing → the scenario is "not applicable". */
export type Requirement =
  /** `listStale` and `resolve` (the reconcile capability). */
  | 'reconcile'
  /** `prune` (the prune capability). */
  | 'prune'
  /** The store judges leases and expiry by its own clock (declared by the caller: `capabilities.storeClock`). */
  | 'storeClock';

export interface VectorFile {
  /** Group name; target semantics not in every store yet are grouped as `target-…`. */
  group: string;
  description: string;
  scenarios: Scenario[];
}

/** Options of a runtime created for the scenario (defaults: `DEFAULT_RUNTIME` in run.ts). */
export interface RuntimeSpec {
  leaseMs?: number;
  /** 0 turns the heartbeat off: a call that runs past its lease then looks stalled. */
  heartbeatMs?: number;
  waitMs?: number;
  pollMs?: number;
  defaultTtlSeconds?: number;
  maxResultBytes?: number;
  /** This runtime's clock runs ahead (+) or behind (−) the real one by this much (a skewed app server). */
  clockSkewMs?: number;
}

export interface Scenario {
  name: string;
  /** The rule the scenario holds the store to, in one sentence. */
  description: string;
  requires?: Requirement[];
  /** Options of the scenario's default runtime. */
  runtime?: RuntimeSpec;
  /** Further runtimes on the same store (another app server), merged over `runtime`; a call picks one by name. */
  runtimes?: Record<string, RuntimeSpec>;
  steps: Step[];
  /** Handler executions per key label over the whole scenario (labels not named are not checked). */
  executions?: Record<string, number>;
}

export type Step =
  | { call: CallStep }
  | { sleep: number }
  /** Wait for background calls (by id) and check their expectations. */
  | { await: string | string[] }
  | { store: StoreStep }
  | { createRuntime: CreateRuntimeStep };

/** What the handler (the side effect) does. */
export interface HandlerSpec {
  /**
   * `ok` returns `result`; `definite` throws an error marked `notExecuted` (released, nothing happened);
   * `final` throws a definite failure worth replaying (`finalFailure: true`); `ambiguous` throws a plain
   * error (outcome unknown); `hang` never returns until the scenario ends (then throws as ambiguous);
   * `unencodable` returns a value with no JSON text (a BigInt).
   */
  outcome?: 'ok' | 'definite' | 'final' | 'ambiguous' | 'hang' | 'unencodable';
  /** Returned by `ok` (default `{ "ok": true }`). */
  result?: unknown;
  /** `ok`: a string result of this many characters instead of `result`. */
  resultChars?: number;
  /** `ok`: this many bytes (a `Uint8Array`, or an `ArrayBuffer` with `resultBytesAs`) instead of `result`. */
  resultBytes?: number;
  resultBytesAs?: 'uint8array' | 'arraybuffer';
  /** `ok`: an array of this many small objects (`{ "i": 0, "v": "" }`, …) instead of `result`. */
  resultItems?: number;
  /** Runs this long before its outcome. */
  delayMs?: number;
}

export interface CallStep {
  /** Names the call for `await`, `tokenOf` and messages. */
  id?: string;
  /** Start, and go on once a handler of the step runs (or every call is over); `await` (or the scenario's end) checks `expect`. */
  background?: boolean;
  /** A runtime of `scenario.runtimes`. */
  runtime?: string;
  key: string;
  /** Use `key` as it is (for key validation); `{run}` in it is replaced by the run id. */
  rawKey?: boolean;
  /** The key is padded with `k` (or cut) to this length. */
  keyLength?: number;
  scope?: string;
  /** Default `POST /conformance`. */
  operation?: string;
  /** Default `{}`. */
  args?: unknown;
  /** Default `fail-closed` (a dedup-store mechanism: an unknown outcome is never retried). */
  mechanism?: StoreMechanism;
  ttlSeconds?: number;
  /** Start this many identical calls at once (default 1). */
  parallel?: number;
  /** With `parallel`: call i starts i × staggerMs later. */
  staggerMs?: number;
  /** With `parallel`: call i uses key `<key>-<i>`. */
  keyPerCall?: boolean;
  handler?: HandlerSpec;
  expect?: CallExpect;
}

/** Counts are over the step's `parallel` calls. Errors are named by class name or by `code`. */
export interface CallExpect {
  /** Calls whose handler ran. */
  executed?: number;
  /** Calls answered from the store (`wasReplay: true`). */
  replays?: number;
  /** Every call fails with this error. */
  error?: string;
  /** Failures per error name or code. */
  errors?: Record<string, number>;
  /** Every successful call returns this value, compared as JSON text (key order included). */
  result?: unknown;
  /** Every successful call returns exactly what the handler returned (JSON text, key order included). */
  sameResultAsHandler?: boolean;
  /** Every error carries these properties (not undefined). */
  errorHas?: string[];
  /** The result's `replayable` field (target: `false` when the store could not keep the result). */
  replayable?: boolean;
}

/**
 * A direct store call. `key`/`scope` name the row; `tokenOf` uses the fencing token the named call's
 * handler got (a stale owner's token, for fencing; `takeOver` expects it as the row's current token).
 * `now` is the real clock.
 */
export interface StoreStep {
  op:
    | 'get'
    | 'complete'
    | 'fail'
    | 'markUnknown'
    | 'release'
    | 'renewLease'
    | 'takeOver'
    | 'listStale'
    | 'prune'
    | 'resolve'
    | 'writeCompleted';
  key?: string;
  scope?: string;
  tokenOf?: string;
  /** complete / writeCompleted: the JSON text stored (writeCompleted may store damaged text on purpose). */
  resultText?: string;
  /** writeCompleted: the operation and args the row is written for (defaults as for a call). */
  operation?: string;
  args?: unknown;
  /** resolve: how the operator settles the row. */
  as?: 'completed' | 'failed' | 'not-executed';
  expect?: StoreExpect;
}

export interface StoreExpect {
  /** complete/fail/markUnknown/release/renewLease: the boolean; resolve/takeOver: whether a row came back. */
  returns?: boolean;
  /** get: no row. */
  absent?: boolean;
  /** get: fields of the row (`result` compared as JSON text). */
  row?: { status?: string; result?: string | null; attempts?: number; hasError?: boolean };
  /** get: the row's dedup window runs at least this long from its completion (`expiresAt − completedAt`). */
  windowFromCompletionMs?: number;
  /** listStale: these key labels are listed / not listed. */
  listed?: string[];
  notListed?: string[];
}

export interface CreateRuntimeStep {
  options: RuntimeSpec;
  /** The runtime must refuse these options when it is created. */
  throws: boolean;
}
