/**
 * One code-mode run: the script in its sandbox thread (isolate.ts), each `api.<tool>(args)` through the
 * same tool runtime the listed tools use. Writes are numbered in the order the script makes them (reads
 * are not counted), and write number N gets the key derived from (run key, N); the dedup row under that
 * key also holds the operation and the canonical arguments' hash. So re-running a script under the same
 * run key replays the writes that completed and executes only the rest, and a script that makes a
 * different write at the same number gets `idempotency_conflict` there, before any effect — and from then
 * on no write of that run is sent, whatever the script catches: a shifted list of writes cannot line up
 * a later write with an earlier run's different one. The answer accounts for every call the script
 * started, awaited or not: the run waits a bounded time for calls still in flight and reports the rest as
 * `executed: "unknown"` with their keys.
 */
import { createHash } from 'node:crypto';
import { scopeString } from '@idemgen/runtime/internal/core/keys.js';
import type { McpToolRuntime } from '@idemgen/runtime/mcp';
import { withServerArguments } from '@idemgen/runtime/internal/mcp/caller.js';
import { KEY_MAX_LENGTH, KEY_MIN_LENGTH } from '@idemgen/runtime/internal/tools/key-argument.js';
import type { ToolBinding, ToolCallContext, ToolCallError, ToolOutcome } from '@idemgen/runtime/tools';
import { runInWorker } from './isolate.js';
import { DEFAULT_LIMITS, internalError, type HostAnswer, type SandboxLimits } from './sandbox.js';

export interface CodeRunOptions {
  runtime: McpToolRuntime;
  /** Arguments the server fills in (`--arg`), overriding what the script sends. */
  serverArguments?: Record<string, unknown>;
  limits?: SandboxLimits;
  /** Runs at once in this process (each holds a thread); more are refused with `code_busy`. Default 8. */
  maxConcurrentRuns?: number;
  /** Runs at once per caller (dedup scope), so one caller cannot take every slot. Default 2. */
  maxRunsPerCaller?: number;
  /** How long a run that ended waits for its calls still in flight. Default 10 s. */
  settleMs?: number;
}

let running = 0;
const runningBy = new Map<string, number>();

/** One `api` call of a run, as reported back to the model. */
interface RunCall {
  tool: string;
  /** Writes only: the write's number in the run (1-based). */
  write?: number;
  ok: boolean;
  was_replay?: boolean;
  error_code?: string;
  /** Still in flight when the run answered, or the server failed while making it: it may or may not take effect. */
  executed?: 'unknown';
  /** A write whose outcome is unknown: the key it was sent with (the same run key resolves it). */
  key?: string;
  /** A completed write of a failed run, or one the script never awaited: what the API answered. */
  result?: unknown;
}

export type CodeRunResult =
  | { ok: true; result: unknown; calls: RunCall[]; logs: string[] }
  | { ok: false; error: ToolCallError; calls: RunCall[]; logs: string[] };

/** The key of write `ordinal` in run `runKey`, within the binding's key length limits. */
function writeKey(runKey: string, ordinal: number, b: ToolBinding): string {
  const hex = createHash('sha256')
    .update(JSON.stringify(['idemgen-code', runKey, ordinal]))
    .digest('hex');
  const max = Math.min(b.keyLimits?.maxLength ?? KEY_MAX_LENGTH, 67);
  return `cm-${hex}`.slice(0, Math.max(max, b.keyLimits?.minLength ?? KEY_MIN_LENGTH, KEY_MIN_LENGTH));
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Bytes of completed writes' results a failed run's answer carries; past it a result is left out. */
const RESULT_BYTES = 64 * 1024;

function busy(message: string): CodeRunResult {
  const error: ToolCallError = {
    code: 'code_busy',
    message: `${message}; nothing was run. Retry shortly (the same key is fine).`,
    executed: 'no',
    retry_same_key: true,
    retry_after_ms: 1_000,
  };
  return { ok: false, error, calls: [], logs: [] };
}

export async function runCode(
  opts: CodeRunOptions,
  code: string,
  runKey: string,
  ctx: ToolCallContext,
): Promise<CodeRunResult> {
  const caller = scopeString(ctx.scope);
  const mine = runningBy.get(caller) ?? 0;
  if (running >= (opts.maxConcurrentRuns ?? 8)) return busy('The server is running as many scripts as it allows');
  if (mine >= (opts.maxRunsPerCaller ?? 2)) return busy(`You are running ${mine} scripts already, as many as allowed`);
  running += 1;
  runningBy.set(caller, mine + 1);
  try {
    return await runGated(opts, code, runKey, ctx);
  } finally {
    running -= 1;
    const left = (runningBy.get(caller) ?? 1) - 1;
    if (left > 0) runningBy.set(caller, left);
    else runningBy.delete(caller);
  }
}

async function runGated(opts: CodeRunOptions, code: string, runKey: string, ctx: ToolCallContext) {
  const bindings = opts.runtime.list();
  const byName = new Map(bindings.map((b) => [b.names.mcp, b]));
  const limits = opts.limits ?? DEFAULT_LIMITS;
  const calls: RunCall[] = [];
  const inflight = new Map<RunCall, Promise<void>>();
  let writes = 0;
  let conflict: RunCall | undefined;
  let unknown = false;

  const host = async (tool: string, argsText: string): Promise<HostAnswer> => {
    const b = byName.get(tool);
    const refuse = (code: string, message: string): HostAnswer => {
      calls.push({ tool, ok: false, error_code: code });
      return { ok: false, error: { code, message, executed: 'no', retry_same_key: code !== 'idempotency_conflict' } };
    };
    let args: unknown;
    try {
      args = JSON.parse(argsText);
    } catch {
      args = undefined;
    }
    if (b === undefined) return refuse('unknown_tool', `There is no tool named ${JSON.stringify(tool)}.`);
    if (!isObj(args)) return refuse('invalid_arguments', `api.${tool}: arguments must be a JSON object.`);
    const sent = withServerArguments(args, b, opts.serverArguments);
    const entry: RunCall = { tool, ok: false };
    let callCtx = ctx;
    if (b.effect === 'write') {
      if (b.keyProperty !== undefined && Object.hasOwn(args, b.keyProperty))
        return refuse(
          'invalid_arguments',
          `api.${tool}: leave ${b.keyProperty} out; code mode derives each write's key from the run's idempotency_key.`,
        );
      if (conflict !== undefined)
        return refuse(
          'idempotency_conflict',
          `Not sent: write #${conflict.write} of this run conflicted with the run that first used this idempotency_key, so no later write of this run is sent.`,
        );
      writes += 1;
      entry.write = writes;
      if (b.keyProperty !== undefined) {
        // The derived key rides in the call context: the script's arguments go to the runtime as it wrote them.
        entry.key = writeKey(runKey, writes, b);
        callCtx = { ...ctx, key: entry.key };
      }
    }
    calls.push(entry);
    // A runtime that throws, even before its promise exists, is answered below (internal_error, executed unknown).
    const pending = new Promise<ToolOutcome>((resolve) => resolve(opts.runtime.call(tool, sent, callCtx)));
    inflight.set(
      entry,
      pending.then(
        () => undefined,
        () => undefined,
      ),
    );
    let outcome: ToolOutcome;
    try {
      outcome = await pending.finally(() => inflight.delete(entry));
    } catch (err) {
      // The runtime threw instead of answering: the call was handed to it, so it may have been sent.
      entry.error_code = 'internal_error';
      entry.executed = 'unknown';
      if (b.effect === 'write') unknown = true;
      return { ok: false, error: internalError(err) };
    }
    if (outcome.ok) {
      entry.ok = true;
      if (b.effect === 'write') {
        entry.was_replay = outcome.was_replay;
        entry.result = outcome.result;
      }
      return { ok: true, value: outcome.result };
    }
    entry.error_code = outcome.error.code;
    if (outcome.error.code === 'idempotency_conflict') conflict ??= entry;
    if (b.effect === 'write' && outcome.error.executed === 'unknown') {
      unknown = true;
      entry.executed = 'unknown';
    }
    return { ok: false, error: { ...outcome.error } };
  };

  const ran = await runInWorker(code, [...byName.keys()], host, limits, ctx.signal);
  // Calls the script started and did not await are still running: their outcome belongs in this answer.
  const late = new Set(inflight.keys());
  if (inflight.size > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(inflight.values()),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, opts.settleMs ?? 10_000))),
    ]);
    clearTimeout(timer);
  }
  for (const entry of inflight.keys()) {
    entry.executed = 'unknown';
    if (entry.write !== undefined) unknown = true;
  }
  return answer(ran, calls, { conflict, unknown, late });
}

function answer(
  ran: Awaited<ReturnType<typeof runInWorker>>,
  calls: RunCall[],
  state: { conflict: RunCall | undefined; unknown: boolean; late: ReadonlySet<RunCall> },
): CodeRunResult {
  const { conflict, unknown, late } = state;
  for (const c of calls) if (c.executed === undefined) delete c.key;
  if (ran.ok && conflict === undefined) {
    // The script saw what its awaited calls answered; a write it never awaited is reported with its result.
    for (const c of calls) if (!late.has(c)) delete c.result;
    return { ok: true, result: ran.value, calls, logs: ran.logs };
  }
  let room = RESULT_BYTES;
  for (const c of calls) {
    if (c.result === undefined) continue;
    const size = Buffer.byteLength(JSON.stringify(c.result) ?? '', 'utf8');
    if (size > room) delete c.result;
    else room -= size;
  }
  const executed = calls.some((c) => c.write !== undefined && c.ok && c.was_replay === false);
  const status = unknown ? 'unknown' : executed ? 'yes' : 'no';
  const why = ran.ok ? 'The script caught the conflict, but the run still failed.' : ran.message;
  const tail =
    status === 'unknown'
      ? 'Some writes were sent and their outcome is not known (see calls: executed "unknown", key); running the same script with the SAME idempotency_key resolves them: a write that completed is replayed, not repeated.'
      : executed
        ? 'Some writes completed (see calls); running the same script with the SAME idempotency_key replays them and executes only the rest.'
        : 'No write was executed by this run.';
  const error: ToolCallError = {
    code: ran.ok ? 'idempotency_conflict' : ran.code,
    message: `${why} ${tail}`,
    executed: status,
    retry_same_key: true,
  };
  if (conflict !== undefined) {
    error.code = 'idempotency_conflict';
    error.message = `Write #${conflict.write} (api.${conflict.tool}) differs from write #${conflict.write} of the run that first used this idempotency_key, so it was not executed, and no later write of this run was sent. The writes of that earlier run happened; the writes of this run that completed are listed in calls with their results. A changed script is a new run: give it a new idempotency_key, and do not redo writes that already happened (read the current state first). (${why}) ${tail}`;
    error.retry_same_key = false;
  }
  return { ok: false, error, calls, logs: ran.logs };
}
