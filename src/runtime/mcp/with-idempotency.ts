/**
 * OP-7 at the MCP tool boundary (SOP OP-7, Case 4): MCP does not promise at-most-once delivery, so a
 * side-effecting tool requires an `idempotency_key` argument and the server dedupes on it — an
 * in-process window in front of the persistent dedup store, which keeps the guarantee across restarts.
 * Wraps an MCP SDK tool handler `(args, extra) => CallToolResult`.
 */
import { hashArgs } from '../canonical-json.js';
import {
  IdempotencyConflictError, IdempotencyFailedError, IdempotencyInFlightError, IdempotencyKeyInvalidError,
  IdempotencyOutcomeUnknownError,
} from '../errors.js';
import { createIdempotency, type Idempotency } from '../idempotency.js';
import { scopeString, validateKey, type KeyScope } from '../keys.js';
import type { DedupStore, StoreMechanism } from '../store.js';
import { errorResult, replayResult, type ToolResultLike } from './tool-result.js';
import { createDedupWindow } from './window.js';

export interface WithIdempotencyOptions<E> {
  store: DedupStore;
  /** Operation key stored with the row (`tool:send_slack_message`); a key reused across tools conflicts. */
  operation: string;
  /** Dedup window of the persistent store; should match the one the tool schema documents. */
  ttlSeconds?: number;
  /** In-process window (SOP OP-7: 5 minutes) and its LRU bound. */
  windowMs?: number;
  windowSize?: number;
  /** The operation's mechanism: decides what an expired lease means (DESIGN §5). */
  mechanism?: StoreMechanism;
  /** Argument carrying the key (a tool's own native key argument, or `idempotency_key`). */
  keyArgument?: string;
  keyMaxLength?: number;
  /** Tenant/principal namespace; default: the authenticated client id when the transport has one. */
  scope?: (extra: E) => string | KeyScope | undefined;
  /** How long a duplicate waits for an in-flight first call before answering "in progress". */
  waitMs?: number;
  leaseMs?: number;
  pollMs?: number;
  maxResultBytes?: number;
  now?: () => number;
}

type Handler<A, E, R> = (args: A, extra: E) => R | Promise<R>;
/** What the wrapper returns: the handler's result type, which may gain `_meta` (replay) or be an `isError` result. */
export type WithMeta<R> = R & Pick<ToolResultLike, '_meta' | 'isError'>;

function defaultScope(extra: unknown): string | undefined {
  const clientId = (extra as { authInfo?: { clientId?: unknown } } | undefined)?.authInfo?.clientId;
  return typeof clientId === 'string' && clientId !== '' ? `client:${clientId}` : undefined;
}

/** `createIdempotency` spreads its options over its defaults: an explicit `undefined` must not erase one. */
function definedOnly<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

function withoutKey(args: Record<string, unknown>, keyArgument: string): Record<string, unknown> {
  const { [keyArgument]: _key, ...rest } = args;
  return rest;
}

/** Runtime errors → `isError` tool results the model can read and act on. */
function toToolError(err: unknown, keyArgument: string): ToolResultLike {
  if (err instanceof IdempotencyKeyInvalidError) {
    return errorResult('idempotency_key_invalid', `Invalid ${keyArgument}: ${err.message}. Send 16–255 printable ASCII characters (for example a UUID), created once per intent.`);
  }
  if (err instanceof IdempotencyConflictError) {
    return errorResult('idempotency_conflict', `This ${keyArgument} was already used with different arguments; nothing was executed. Reuse a key only to retry the identical call; use a new key for a new intent.`);
  }
  if (err instanceof IdempotencyInFlightError) {
    return errorResult('idempotency_in_flight', `A call with this ${keyArgument} is still in progress; nothing new was executed. Retry later with the same key to get its result.`);
  }
  if (err instanceof IdempotencyOutcomeUnknownError) {
    return errorResult('idempotency_outcome_unknown', `An earlier call with this ${keyArgument} did not finish and its outcome is unknown; it is not run again automatically. It needs reconciliation by an operator.`);
  }
  if (err instanceof IdempotencyFailedError) return errorResult('idempotency_failed', err.message);
  return errorResult('idempotency_error', `The tool failed: ${err instanceof Error ? err.message : String(err)}`);
}

export function withIdempotency<A extends Record<string, unknown>, E, R extends ToolResultLike>(
  handler: Handler<A, E, R>,
  options: WithIdempotencyOptions<E>,
): (args: A, extra: E) => Promise<WithMeta<R>> {
  const keyArgument = options.keyArgument ?? 'idempotency_key';
  const now = options.now ?? Date.now;
  const window = createDedupWindow<R>(options.windowMs ?? 300_000, options.windowSize ?? 1000);
  const idem: Idempotency = createIdempotency(definedOnly({
    store: options.store, now, waitMs: options.waitMs, leaseMs: options.leaseMs, pollMs: options.pollMs,
    maxResultBytes: options.maxResultBytes, defaultTtlSeconds: options.ttlSeconds,
  }));
  const mechanism = options.mechanism ?? 'fail-closed';

  return async (args, extra): Promise<WithMeta<R>> => {
    const key = (args ?? {})[keyArgument];
    if (key === undefined || key === null || key === '') {
      return errorResult('idempotency_key_missing', `Missing required argument ${keyArgument}: this tool has side effects. Create a unique key for this intent (for example a UUID), keep it, and send the same key when you retry.`) as WithMeta<R>;
    }
    const rest = withoutKey(args, keyArgument);
    const scope = (options.scope ?? defaultScope)(extra);
    try {
      validateKey(key, { maxLength: options.keyMaxLength });
      const argsHash = hashArgs(rest);
      const id = `${scopeString(scope)}\n${key as string}`;
      const hit = window.get(id, now());
      if (hit && hit.argsHash === argsHash) return replayResult(hit.result, new Date(hit.calledAt));
      // Args differ (or no hit): the store decides — it raises the conflict with the stored row.
      const run = await idem.run<R>(
        { operation: options.operation, key: key as string, scope, args: rest, mechanism, ttlSeconds: options.ttlSeconds },
        async () => handler(args, extra),
      );
      window.set(id, { argsHash, result: run.result, calledAt: run.originalCalledAt.getTime(), storedAt: now() });
      return run.wasReplay ? replayResult(run.result, run.originalCalledAt) : run.result;
    } catch (err) {
      return toToolError(err, keyArgument) as WithMeta<R>;
    }
  };
}
