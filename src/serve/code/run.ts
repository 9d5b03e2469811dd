/**
 * One code-mode run: the script in the sandbox, each `api.<tool>(args)` through the same tool runtime the
 * listed tools use. Writes are numbered in the order the script makes them (reads are not counted), and
 * write number N gets the key derived from (run key, N); the dedup row under that key also holds the
 * operation and the canonical arguments' hash. So re-running a script under the same run key replays the
 * writes that completed and executes only the rest, and a script that makes a different write at the same
 * number gets `idempotency_conflict` there, before any effect.
 */
import { createHash } from 'node:crypto';
import type { McpToolRuntime } from '../../runtime/mcp/register.js';
import type { ToolBinding, ToolCallContext, ToolCallError } from '../../runtime/tools/types.js';
import { DEFAULT_LIMITS, runInSandbox, type HostAnswer, type SandboxLimits } from './sandbox.js';

export interface CodeRunOptions {
  runtime: McpToolRuntime;
  /** Arguments the server fills in (`--arg`), overriding what the script sends. */
  serverArguments?: Record<string, unknown>;
  limits?: SandboxLimits;
  /** Runs at once in this process (each may hold its memory limit); more are refused with `code_busy`. Default 8. */
  maxConcurrentRuns?: number;
}

let running = 0;

/** One `api` call of a run, as reported back to the model. */
interface RunCall {
  tool: string;
  /** Writes only: the write's number in the run (1-based). */
  write?: number;
  ok: boolean;
  was_replay?: boolean;
  error_code?: string;
}

export type CodeRunResult =
  | { ok: true; result: unknown; calls: RunCall[]; logs: string[] }
  | { ok: false; error: ToolCallError; calls: RunCall[]; logs: string[] };

/** The key of write `ordinal` in run `runKey`, within the binding's key length limits. */
function writeKey(runKey: string, ordinal: number, b: ToolBinding): string {
  const hex = createHash('sha256')
    .update(JSON.stringify(['idemgen-code', runKey, ordinal]))
    .digest('hex');
  const max = Math.min(b.keyLimits?.maxLength ?? 255, 67);
  return `cm-${hex}`.slice(0, Math.max(max, b.keyLimits?.minLength ?? 16, 16));
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function runCode(
  opts: CodeRunOptions,
  code: string,
  runKey: string,
  ctx: ToolCallContext,
): Promise<CodeRunResult> {
  const bindings = opts.runtime.list();
  const byName = new Map(bindings.map((b) => [b.names.mcp, b]));
  const fixed = opts.serverArguments ?? {};
  const calls: RunCall[] = [];
  let writes = 0;
  let conflict: RunCall | undefined;
  let unknown = false;

  const host = async (tool: string, args: unknown): Promise<HostAnswer> => {
    const b = byName.get(tool);
    const refuse = (code: string, message: string): HostAnswer => {
      calls.push({ tool, ok: false, error_code: code });
      return { ok: false, error: { code, message, executed: 'no' } };
    };
    if (b === undefined) return refuse('unknown_tool', `There is no tool named ${JSON.stringify(tool)}.`);
    if (!isObj(args)) return refuse('invalid_arguments', `api.${tool}: arguments must be a JSON object.`);
    const own = Object.keys(isObj(b.inputSchema.properties) ? b.inputSchema.properties : {});
    const injected = Object.fromEntries(own.filter((p) => Object.hasOwn(fixed, p)).map((p) => [p, fixed[p]]));
    const sent: Record<string, unknown> = { ...args, ...injected };
    const entry: RunCall = { tool, ok: false };
    if (b.effect === 'write') {
      if (b.keyProperty !== undefined && Object.hasOwn(args, b.keyProperty))
        return refuse(
          'invalid_arguments',
          `api.${tool}: leave ${b.keyProperty} out; code mode derives each write's key from the run's idempotency_key.`,
        );
      writes += 1;
      entry.write = writes;
      if (b.keyProperty !== undefined) sent[b.keyProperty] = writeKey(runKey, writes, b);
    }
    calls.push(entry);
    const outcome = await opts.runtime.call(tool, sent, ctx);
    if (outcome.ok) {
      entry.ok = true;
      if (b.effect === 'write') entry.was_replay = outcome.was_replay;
      return { ok: true, value: outcome.result };
    }
    entry.error_code = outcome.error.code;
    if (outcome.error.code === 'idempotency_conflict') conflict ??= entry;
    if (b.effect === 'write' && outcome.error.executed === 'unknown') unknown = true;
    return { ok: false, error: { ...outcome.error } };
  };

  if (running >= (opts.maxConcurrentRuns ?? 8)) {
    const error: ToolCallError = {
      code: 'code_busy',
      message:
        'The server is running as many scripts as it allows; nothing was run. Retry shortly (the same key is fine).',
      executed: 'no',
      retry_same_key: true,
      retry_after_ms: 1_000,
    };
    return { ok: false, error, calls, logs: [] };
  }
  running += 1;
  let ran: Awaited<ReturnType<typeof runInSandbox>>;
  try {
    ran = await runInSandbox(code, [...byName.keys()], host, opts.limits ?? DEFAULT_LIMITS, ctx.signal);
  } finally {
    running -= 1;
  }
  if (ran.ok) return { ok: true, result: ran.value, calls, logs: ran.logs };
  const executed = calls.some((c) => c.write !== undefined && c.ok && c.was_replay === false);
  const error: ToolCallError = {
    code: ran.code,
    message: `${ran.message} ${executed ? 'Some writes completed (see calls); running the same script with the SAME idempotency_key replays them and executes only the rest.' : 'No write was executed by this run.'}`,
    executed: unknown ? 'unknown' : executed ? 'yes' : 'no',
    retry_same_key: true,
  };
  if (conflict !== undefined) {
    error.code = 'idempotency_conflict';
    error.message = `Write #${conflict.write} (api.${conflict.tool}) differs from write #${conflict.write} of the run that first used this idempotency_key, so it was not executed. A changed script is a new run: give it a new idempotency_key. (${ran.message})`;
    error.retry_same_key = false;
  }
  return { ok: false, error, calls, logs: ran.logs };
}
