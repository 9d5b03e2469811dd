/**
 * The pending → completed state machine (docs/concepts.md#outcomes, docs/concepts.md). The dedup row goes in
 * *before* the side effect (docs/concepts.md#store-rules); `pending` means "wait or fail", never "call again",
 * unless the downstream itself dedupes the key (`native-key`, `content-address`).
 */
import { randomUUID } from 'node:crypto';
import { currentRun, insideRun } from './active-run.js';
import { summarizeArgs, type Summarize } from './args-summary.js';
import { hashArgs } from './canonical-json.js';
import {
  IdempotencyConflictError,
  IdempotencyFailedError,
  IdempotencyOutcomeUnknownError,
  IdempotencyRecordCorruptError,
  IdempotencyResultTooLargeError,
  IdempotencyResultUnencodableError,
  IdempotencyStoreUnavailableError,
  inFlight,
} from './errors.js';
import type { IdempotencyErrorContext } from './errors.js';
import { complete, onFailure, onFenced, type Settle } from './settle.js';
import { RETRY_SAFE_MECHANISMS } from './mechanism.js';
import { scopeString, validateKey, type KeyScope } from './keys.js';
import { startHeartbeat, stopHeartbeat } from './lease-heartbeat.js';
import { createRunTag, type RunTag } from './run-tag.js';
import { createSimilarGuard, type RecentSimilar, type RecentSimilarOptions } from './recent-similar.js';
import { createTelemetry, type AnsweredFrom, type ObservedCall, type Probe } from './telemetry.js';
import type { ClaimResult, DedupRow, DedupStore, StoreMechanism } from './store-types.js';
import { isStoreUnavailable, unavailableReason } from './unavailable.js';
import { decodeResult, type DecodedResult } from './stored-value.js';

export interface IdempotencyOptions {
  store: DedupStore;
  /** How long an attempt owns the row before another may treat it as stale. */
  leaseMs?: number;
  /** Lease renewal interval while the call runs (default `leaseMs / 3`; 0 turns the heartbeat off). */
  heartbeatMs?: number;
  /** How long a duplicate waits for an in-flight attempt before `IdempotencyInFlightError`. */
  waitMs?: number;
  pollMs?: number;
  maxResultBytes?: number;
  /** Applied to the stored copy only; the live caller gets the unredacted result. */
  redact?: (result: unknown, info: { operation: string; key: string }) => unknown;
  /**
   * The application's clock (default `Date.now`). Memory and SQLite judge leases and expiry by it;
   * PostgreSQL, MySQL/MariaDB and Redis by their own server's clock (unless created with `clock: 'caller'`).
   */
  now?: () => number;
  /**
   * Dedup window when a call gives no `ttlSeconds` (docs/concepts.md#carriers: ≥ 1 h; default 24 h like Stripe). It
   * counts from the call's completion and must be longer than `leaseMs`.
   */
  defaultTtlSeconds?: number;
  /**
   * Spans and metrics through `@opentelemetry/api` when it is installed (telemetry.ts); they go nowhere
   * until the application registers an SDK. `false` skips even the no-op API calls.
   */
  telemetry?: boolean;
  /**
   * What the row keeps of the arguments for `idemgen reconcile` (args-summary.ts). Default: shape and
   * sizes, no values; `false` keeps nothing. Runs once per call, before the claim.
   */
  summarize?: Summarize | false;
  /** The soft guard for repeated intent (recent-similar.ts, docs/concepts.md#repeated-intent), off by default: flag a new intent that repeats a recent one. */
  recentSimilar?: RecentSimilarOptions;
}

export interface RunRequest {
  operation: string;
  key: string;
  /** Tenant/principal namespace: one tenant never replays another's result. */
  scope?: string | KeyScope;
  args: unknown;
  /**
   * The mechanism's name. An `OP-N` spelling is read as the name where it enters the package (a generated
   * description, a binding, the config, `withIdempotency`'s options, a stored row), not here.
   */
  mechanism: StoreMechanism;
  /** This call's dedup window, from its completion; longer than `leaseMs`, else `run` rejects with a TypeError. */
  ttlSeconds?: number;
  /** For the span (`gen_ai.tool.name`); default: the operation without its `tool:` prefix, if it has one. */
  toolName?: string;
  /** The model's tool call id (`gen_ai.tool.call.id`), when the caller has it. */
  toolCallId?: string;
  /**
   * What a verification plan needs to look this call up later (runtime/verify: the reference and the request
   * values its read is addressed by), kept in the row's argument summary for `idemgen reconcile --verify`.
   */
  lookup?: unknown;
}

export interface RunContext {
  key: string;
  leaseToken: string;
  /** 1 for the first claim; higher after a native-key takeover. */
  attempt: number;
  /**
   * This run's tag. Pass the context as `run` to `HttpCaller.send` so a definite failure of this
   * run's single request ("not sent", a 4xx) may release the row; anything else is ambiguous.
   */
  tag: RunTag;
}

/** How a replay was recognised; present only when `wasReplay` is `true` (docs/concepts.md#replay). */
export type ReplayEvidence =
  /** The API's replay header said `true` (`header:Idempotent-Replayed`, the header's name as the vendor spells it). */
  | `header:${string}`
  /** The body's creation time is provably older than the request that got it (client/replay.ts). */
  | 'created-before-send'
  /** The dedup store held the completed row (own store, saga, dedup table, content address). */
  | 'store'
  /** A retried DELETE found the resource gone after an ambiguous first attempt (`method-idempotent`). */
  | 'gone-after-retry';

/** docs/concepts.md#replay: the model must know it did not re-send. */
export interface RunResult<T> {
  result: T;
  wasReplay: boolean;
  originalCalledAt: Date;
  /**
   * How the replay was recognised (only when `wasReplay`): `store` for a stored row; for a native key, what
   * the API's answer showed (`header:Idempotent-Replayed`, `created-before-send`; client/replay.ts).
   */
  replayEvidence?: ReplayEvidence;
  /** With `recentSimilar` on: this new intent repeats one completed `calledAt` under `key`, within the window. */
  recentSimilar?: RecentSimilar;
  /**
   * Present (and `false`) only on the first caller's result when the store could not keep it — over
   * `maxResultBytes`, or no JSON text (a BigInt, a cycle, a throwing `redact`). The effect is recorded
   * and the key stays burned; a retry gets `IdempotencyResultTooLargeError` /
   * `IdempotencyResultUnencodableError` instead of this result, so hand it on now.
   */
  replayable?: false;
  /**
   * The outcome was unknown and a read of the API settled it (runtime/verify): the result is the resource the
   * lookup found (`wasReplay: true`), with the plan's shape and what the read showed.
   */
  verified?: { shape: string; evidence: string };
  /** saga: the write happened but its inverse cannot be addressed, so it cannot be undone automatically. */
  cannotUndo?: true;
}

export interface Idempotency {
  readonly store: DedupStore;
  run<T>(req: RunRequest, fn: (ctx: RunContext) => Promise<T>): Promise<RunResult<T>>;
  /**
   * A repeat the caller answered itself without `run` (the MCP middleware's tool-dedup window): recorded as a
   * replay span and count, marked `idemgen.answered_from`, so telemetry sees every repeat.
   */
  answered(req: Omit<RunRequest, 'args' | 'key' | 'scope' | 'ttlSeconds'>, from: AnsweredFrom, argsHash: string): void;
}

interface Call {
  req: RunRequest;
  scope: string;
  argsHash: string;
  ctx: (row?: DedupRow) => IdempotencyErrorContext;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Machine = Required<
  Omit<IdempotencyOptions, 'redact' | 'heartbeatMs' | 'telemetry' | 'summarize' | 'recentSimilar'>
> &
  Pick<IdempotencyOptions, 'redact' | 'heartbeatMs' | 'summarize'>;

function replay<T>(call: Call, row: DedupRow): RunResult<T> {
  if (row.status === 'failed') {
    throw new IdempotencyFailedError(
      `${call.req.operation} failed earlier under this key; replaying the failure`,
      call.ctx(row),
    );
  }
  let decoded: DecodedResult;
  try {
    decoded = decodeResult(row.result);
  } catch (err) {
    throw new IdempotencyRecordCorruptError(
      `${call.req.operation}: the stored result under this key does not parse (${unavailableReason(err)}); ` +
        'not calling again and nothing to replay: list and repair it with `idemgen reconcile`',
      call.ctx(row),
      row.result ?? '',
      { cause: err },
    );
  }
  if (decoded.kind === 'too-large') {
    throw new IdempotencyResultTooLargeError(
      `${call.req.operation} completed, but its ${decoded.bytes}-byte result exceeded the stored cap`,
      call.ctx(row),
    );
  }
  if (decoded.kind === 'unencodable') {
    throw new IdempotencyResultUnencodableError(
      `${call.req.operation} completed, but its result could not be stored (${decoded.reason}); it cannot be replayed`,
      call.ctx(row),
    );
  }
  return {
    result: decoded.value as T,
    wasReplay: true,
    replayEvidence: 'store',
    originalCalledAt: new Date(row.createdAt),
  };
}

async function execute<T>(
  m: Machine,
  call: Call,
  row: DedupRow,
  token: string,
  fn: (ctx: RunContext) => Promise<T>,
): Promise<RunResult<T>> {
  const s: Settle = {
    store: m.store,
    now: m.now,
    maxResultBytes: m.maxResultBytes,
    redact: m.redact,
    operation: call.req.operation,
    mechanism: call.req.mechanism,
    id: { scope: call.scope, key: call.req.key, leaseToken: token },
    ctx: call.ctx,
  };
  const tag = createRunTag();
  const ctx: RunContext = { key: call.req.key, leaseToken: token, attempt: row.attempts, tag };
  const renew = () =>
    m.store.renewLease({ scope: call.scope, key: call.req.key, leaseToken: token, now: m.now(), leaseMs: m.leaseMs });
  const beat = startHeartbeat(renew, m.heartbeatMs ?? m.leaseMs / 3);
  let result: T;
  try {
    result = await insideRun({ key: call.req.key, ctx, createdAt: row.createdAt }, () => fn(ctx));
  } catch (err) {
    // A renewal in flight lands before the row is settled (lease-heartbeat.ts), on either path.
    const landing = stopHeartbeat(beat);
    if (landing !== undefined) await landing;
    return onFailure(s, row, tag, err);
  }
  const landing = stopHeartbeat(beat);
  if (landing !== undefined) await landing;
  const recorded = await complete(s, row, result);
  if (recorded === 'fenced') result = await onFenced(s, result);
  const out: RunResult<T> = { result, wasReplay: false, originalCalledAt: new Date(row.createdAt) };
  if (recorded === 'marker') out.replayable = false;
  return out;
}

/**
 * A store error before the call ran, typed with the call's context: an unreachable store (nothing was
 * executed, retry later) or a row that does not parse. Anything else is the store's own error, as thrown.
 */
function beforeRun(call: Call, err: unknown): unknown {
  if (err instanceof IdempotencyRecordCorruptError) {
    return new IdempotencyRecordCorruptError(err.message, { ...call.ctx(), state: err.state }, err.text, {
      cause: err.cause,
    });
  }
  if (!isStoreUnavailable(err)) return err;
  return new IdempotencyStoreUnavailableError(
    `${call.req.operation}: the idempotency store is unreachable (${unavailableReason(err)}); ` +
      'nothing was executed, retry later with the same key',
    call.ctx(),
    { cause: err },
  );
}

/** A row already exists: replay, conflict, take over, fail closed, or (undefined) keep waiting. */
async function onExisting<T>(
  m: Machine,
  call: Call,
  row: DedupRow,
  token: string,
  fn: (ctx: RunContext) => Promise<T>,
  mayWait: boolean,
  probe: Probe,
  now: number,
): Promise<RunResult<T> | undefined> {
  if (row.argsHash !== call.argsHash || row.operation !== call.req.operation) {
    throw new IdempotencyConflictError(
      `key reused for ${row.operation} with different arguments (a new action needs a new key): not calling`,
      call.ctx(row),
    );
  }
  if (row.status !== 'pending') return replay<T>(call, row);
  // `now` is the store's clock when it keeps one (PostgreSQL, MySQL, Redis): the lease is judged where it was set.
  if (row.leaseExpiresAt > now) {
    if (mayWait) return undefined;
    throw inFlight(`${call.req.operation} is still in flight under this key`, call.ctx(row), now);
  }
  if (!RETRY_SAFE_MECHANISMS.has(call.req.mechanism)) {
    throw new IdempotencyOutcomeUnknownError(
      `${call.req.operation}: an earlier attempt never finished; outcome unknown, not calling again (fail closed)`,
      call.ctx(row),
    );
  }
  const taken = await m.store
    .takeOver({
      scope: call.scope,
      key: call.req.key,
      expectedToken: row.leaseToken,
      newToken: token,
      now: m.now(),
      leaseMs: m.leaseMs,
    })
    .catch((err: unknown) => {
      throw beforeRun(call, err);
    });
  if (taken) probe.attempts = taken.attempts;
  // Lost the takeover race: someone else re-leased it; loop and look again.
  return taken ? execute(m, call, taken, token, fn) : undefined;
}

function prepareCall(req: RunRequest): Call {
  const scope = scopeString(req.scope);
  const call: Call = {
    req,
    scope,
    argsHash: hashArgs(req.args),
    ctx: (state) => ({ key: req.key, operation: req.operation, scope, state }),
  };
  try {
    validateKey(req.key, { operation: req.operation });
  } catch (err) {
    Object.assign(err as object, { operation: req.operation, scope });
    throw err;
  }
  return call;
}

async function run<T>(
  m: Machine,
  req: RunRequest,
  fn: (ctx: RunContext) => Promise<T>,
  probe: Probe,
): Promise<RunResult<T>> {
  const call = prepareCall(req);
  probe.argsHash = call.argsHash;
  const outer = currentRun(req.key);
  if (outer !== undefined) {
    // Already inside the run of this key (active-run.ts): the outer row covers this call; join it.
    return { result: await fn(outer.ctx), wasReplay: false, originalCalledAt: new Date(outer.createdAt) };
  }
  const summary = summarizeArgs(req.args, req.operation, m.summarize);
  const argsSummary =
    req.lookup === undefined ? summary : `{"verify":${JSON.stringify(req.lookup)},"shape":${summary ?? 'null'}}`;
  const ttlMs = (req.ttlSeconds ?? m.defaultTtlSeconds) * 1000;
  if (req.ttlSeconds !== undefined) checkWindow(`ttlSeconds of ${req.operation}`, req.ttlSeconds, m.leaseMs);
  const polls = Math.max(0, Math.ceil(m.waitMs / Math.max(1, m.pollMs)));
  for (let poll = 0; ; poll++) {
    const token = randomUUID(); // a fencing token, never the idempotency key
    let claim: ClaimResult;
    try {
      // Inline, not a wrapper: no extra promise on the hot path.
      claim = await m.store.claim({
        scope: call.scope,
        key: req.key,
        operation: req.operation,
        argsHash: call.argsHash,
        mechanism: req.mechanism,
        leaseToken: token,
        now: m.now(),
        leaseMs: m.leaseMs,
        ttlMs,
        argsSummary,
      });
    } catch (err) {
      throw beforeRun(call, err);
    }
    probe.attempts = claim.row.attempts;
    if (claim.claimed) return execute(m, call, claim.row, token, fn);
    const outcome = await onExisting(m, call, claim.row, token, fn, poll < polls, probe, claim.now ?? m.now());
    if (outcome) return outcome;
    await sleep(m.pollMs);
  }
}

/**
 * The dedup window must outlast the lease: a window no longer than the lease would let a key be claimed
 * afresh while its first attempt may still be running (the window counts from the completion, the lease
 * from the last heartbeat).
 */
function checkWindow(what: string, ttlSeconds: number, leaseMs: number): void {
  if (Number.isFinite(ttlSeconds) && ttlSeconds * 1000 > leaseMs) return;
  throw new TypeError(
    `${what} (${ttlSeconds} s = ${ttlSeconds * 1000} ms) must be longer than leaseMs (${leaseMs} ms): ` +
      'raise the TTL or shorten the lease',
  );
}

export function createIdempotency(options: IdempotencyOptions): Idempotency {
  const telemetry = createTelemetry(options.telemetry ?? true);
  const m: Machine = {
    leaseMs: 30_000,
    waitMs: 10_000,
    pollMs: 50,
    maxResultBytes: 256 * 1024,
    defaultTtlSeconds: 86_400,
    now: Date.now,
    // An option passed as `undefined` keeps its default (a spread alone would erase it).
    ...(Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as IdempotencyOptions),
  };
  checkWindow('createIdempotency: defaultTtlSeconds', m.defaultTtlSeconds, m.leaseMs);
  const observed = (req: Pick<RunRequest, 'operation' | 'mechanism' | 'toolName' | 'toolCallId'>): ObservedCall => ({
    operation: req.operation,
    mechanism: req.mechanism,
    toolCallId: req.toolCallId,
    toolName: req.toolName ?? (req.operation.startsWith('tool:') ? req.operation.slice('tool:'.length) : undefined),
  });
  const guard = options.recentSimilar ? createSimilarGuard(options.recentSimilar) : undefined;
  const guarded = async <T>(
    req: RunRequest,
    fn: (ctx: RunContext) => Promise<T>,
    probe: Probe,
  ): Promise<RunResult<T>> => {
    const out = await run(m, req, fn, probe);
    if (out.wasReplay || !guard) return out;
    const similar = guard.check(req.operation, scopeString(req.scope), req.key, req.args, m.now());
    if (!similar) return out;
    probe.recentSimilarAt = similar.calledAt.getTime();
    return { ...out, recentSimilar: similar };
  };
  return {
    store: m.store,
    // Without the soft guard the state machine's own promise goes straight back (no extra async layer).
    run: (req, fn) =>
      telemetry.observe(
        () => observed(req),
        (probe) => (guard ? guarded(req, fn, probe) : run(m, req, fn, probe)),
      ),
    answered: (req, from, argsHash) => telemetry.answered(observed(req), from, argsHash),
  };
}
