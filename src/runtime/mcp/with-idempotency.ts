/**
 * tool-dedup at the MCP tool boundary (docs/concepts.md#tool-dedup): MCP does not promise at-most-once delivery, so a
 * side-effecting tool requires an `idempotency_key` argument and the server dedupes on it — an
 * in-process window in front of the persistent dedup store, which keeps the guarantee across restarts.
 * Wraps an MCP SDK tool handler `(args, extra) => CallToolResult`.
 */
import { mechanismName, type MechanismInput } from '../core/mechanism.js';
import { hashArgs } from '../core/canonical-json.js';
import {
  IdempotencyConflictError,
  IdempotencyFailedError,
  IdempotencyFencedError,
  IdempotencyInFlightError,
  IdempotencyKeyInvalidError,
  IdempotencyOutcomeUnknownError,
  IdempotencyRecordCorruptError,
  IdempotencyResultTooLargeError,
  IdempotencyResultUnencodableError,
  IdempotencyStoreUnavailableError,
} from '../core/errors.js';
import { HttpStatusError } from '../http/caller.js';
import { createIdempotency, type Idempotency } from '../core/idempotency.js';
import { parseApiError } from '../tools/api-error.js';
import { intentKey, scopeString, validateKey, type KeyScope } from '../core/keys.js';
import {
  checkScopeSecret,
  principalScope,
  ScopeSecretMissingError,
  type CallerCredentials,
} from '../core/principal.js';
import type { DedupStore } from '../store/types.js';
import type { RecentSimilarOptions } from '../core/recent-similar.js';
import { errorResult, recentSimilarResult, replayResult, unreplayable, type ToolResultLike } from './tool-result.js';
import { createDedupWindow } from './window.js';
import { hostIntent, INTENT_REQUIRED, type McpKeySource } from './intent.js';

export interface WithIdempotencyOptions<E> {
  store: DedupStore;
  /** Operation key stored with the row (`tool:send_slack_message`); a key reused across tools conflicts. */
  operation: string;
  /** Dedup window of the persistent store; should match the one the tool schema documents. */
  ttlSeconds?: number;
  /** In-process window (docs/concepts.md#tool-dedup: 5 minutes) and its LRU bound. */
  windowMs?: number;
  windowSize?: number;
  /** The operation's mechanism (a name or its alias): decides what an expired lease means (docs/concepts.md). */
  mechanism?: MechanismInput;
  /** Argument carrying the key (a tool's own native key argument, or `idempotency_key`). */
  keyArgument?: string;
  keyMaxLength?: number;
  /**
   * Tenant/principal namespace. Default: the authenticated subject (`authInfo.extra.sub`); '' when the
   * transport has no auth (stdio). Authenticated without a `sub` → pass this resolver, else every call
   * answers `idempotency_scope_unknown` (keys of different users must never share a namespace).
   */
  scope?: (extra: E) => string | KeyScope | undefined;
  /**
   * The caller's own API credentials for this request, when they choose the upstream account the handler acts
   * on: part of the dedup scope as HMAC-SHA256 under `scopeSecret` (never stored as such). With credentials and
   * no secret every call answers `idempotency_scope_unknown`.
   */
  credentials?: (extra: E) => CallerCredentials | undefined;
  /** At least 32 bytes, the same on every instance sharing the store. */
  scopeSecret?: string | Uint8Array;
  /** How long a duplicate waits for an in-flight first call before answering "in progress". */
  waitMs?: number;
  leaseMs?: number;
  pollMs?: number;
  maxResultBytes?: number;
  now?: () => number;
  /**
   * The repeated-intent soft guard (opt-in): a new key for the same tool and recipient-like arguments within
   * `windowSeconds` of a completed call still runs, and its result tells the model so (text and
   * `_meta['idemgen/recent_similar']`), so it can ask the user before sending a third.
   */
  recentSimilar?: RecentSimilarOptions;
  /**
   * `model` (default): the host's `_meta["io.idemgen/intent"]` / `_meta["io.idemgen/key"]` keys the call
   * when the request carries one (it wins over the model's key), else the key argument. `intent`: a call
   * without the host's intent is refused (leave the key argument out of the tool's schema then).
   */
  keySource?: McpKeySource;
}

type Handler<A, E, R> = (args: A, extra: E) => R | Promise<R>;
/** What the wrapper returns: the handler's result type, which may gain `_meta` (replay) or be an `isError` result. */
export type WithMeta<R> = R & Pick<ToolResultLike, '_meta' | 'isError'>;

/**
 * The dedup namespace must be the *principal* (the user), not the OAuth client: one client app serves
 * many users, and keying on it would let one user's retry replay another user's result. The subject
 * is taken from `authInfo.extra.sub` (the token's `sub` claim, as verifiers conventionally put it);
 * with no `authInfo` at all (stdio, a local server) there is one principal and the scope is ''.
 */
export function defaultScope(extra: unknown): string | undefined {
  const authInfo = (extra as { authInfo?: { extra?: Record<string, unknown> } } | undefined)?.authInfo;
  if (authInfo === undefined || authInfo === null) return undefined;
  const sub = authInfo.extra?.sub;
  if (typeof sub === 'string' && sub !== '') return `sub:${sub}`;
  throw new ScopeUnknownError();
}

/** Authenticated, but the subject is not where the default looks: guessing would mix users' keys. */
export class ScopeUnknownError extends Error {
  constructor() {
    super('the request is authenticated but authInfo.extra.sub names no subject');
    this.name = 'ScopeUnknownError';
  }
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
    return errorResult(
      'idempotency_key_invalid',
      `Invalid ${keyArgument}: ${err.message}. Send 16–255 printable ASCII characters (for example a UUID), created once per intent.`,
    );
  }
  if (err instanceof IdempotencyConflictError) {
    return errorResult(
      'idempotency_conflict',
      `This ${keyArgument} was already used with different arguments; nothing was executed. Reuse a key only to retry the identical call; use a new key for a new intent.`,
    );
  }
  if (err instanceof IdempotencyInFlightError) {
    const ms = err.retryAfterMs;
    return errorResult(
      'idempotency_in_flight',
      `A call with this ${keyArgument} is still in progress; nothing new was executed.${ms === undefined ? '' : ` Retry in about ${Math.ceil(ms / 1000)} s`} Retry later with the same key to get its result.`,
      ms === undefined ? undefined : { retry_after_ms: ms },
    );
  }
  if (err instanceof IdempotencyStoreUnavailableError) {
    return errorResult(
      'store_unavailable',
      `The idempotency store is unreachable, so the call was not made; nothing was executed. Retry later with the same ${keyArgument}.`,
    );
  }
  if (err instanceof IdempotencyRecordCorruptError) {
    return errorResult(
      'idempotency_record_corrupt',
      `The record of an earlier call with this ${keyArgument} is damaged, so it is neither replayed nor run again. An operator must repair it (idemgen reconcile); never retry with a new key.`,
    );
  }
  if (err instanceof IdempotencyOutcomeUnknownError) {
    return errorResult(
      'idempotency_outcome_unknown',
      `An earlier call with this ${keyArgument} did not finish and its outcome is unknown; it is not run again automatically. It needs reconciliation by an operator.`,
    );
  }
  if (err instanceof IdempotencyResultTooLargeError || err instanceof IdempotencyResultUnencodableError) {
    return errorResult(
      'idempotency_result_unavailable',
      `The call with this ${keyArgument} already happened (it is not run again), but its result was not stored and cannot be replayed. Do not retry it; use a read tool to look at the outcome.`,
    );
  }
  if (err instanceof IdempotencyFencedError) {
    return errorResult(
      'idempotency_fenced',
      `The call with this ${keyArgument} happened, but a retry took the key over while it ran, so its result was not recorded. Do not retry with a new key; retry with the same key to get the recorded result.`,
    );
  }
  if (err instanceof IdempotencyFailedError) return errorResult('idempotency_failed', err.message);
  if (err instanceof HttpStatusError && err.definiteFailure) {
    // A generated client's 4xx inside the handler: the row was released (active-run.ts), so say so, with the API's words.
    const api = parseApiError(err.body);
    const detail = [api.code, api.message].filter((x) => x !== undefined).join(': ');
    return errorResult(
      'api_error',
      `The API refused the request (HTTP ${err.status}${detail !== '' ? `, ${detail}` : ''}); nothing was executed. Correct the arguments and retry with the same ${keyArgument}.`,
    );
  }
  if (err instanceof ScopeSecretMissingError) {
    return errorResult(
      'idempotency_scope_unknown',
      `Server configuration error: ${err.message}; pass \`scopeSecret\` to withIdempotency. Nothing was executed.`,
    );
  }
  if (err instanceof ScopeUnknownError) {
    return errorResult(
      'idempotency_scope_unknown',
      `Server configuration error: ${err.message}; the server must pass a \`scope\` resolver to withIdempotency. Nothing was executed.`,
    );
  }
  return errorResult('idempotency_error', `The tool failed: ${err instanceof Error ? err.message : String(err)}`);
}

export function withIdempotency<A extends Record<string, unknown>, E, R extends ToolResultLike>(
  handler: Handler<A, E, R>,
  options: WithIdempotencyOptions<E>,
): (args: A, extra: E) => Promise<WithMeta<R>> {
  const keyArgument = options.keyArgument ?? 'idempotency_key';
  const now = options.now ?? Date.now;
  // The window answers without the store, so it must never outlive the store's dedup window (TTL).
  const windowMs = Math.min(
    options.windowMs ?? 300_000,
    options.ttlSeconds === undefined ? Infinity : options.ttlSeconds * 1000,
  );
  const window = createDedupWindow<R>(windowMs, options.windowSize ?? 1000);
  const idem: Idempotency = createIdempotency(
    definedOnly({
      store: options.store,
      now,
      waitMs: options.waitMs,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      maxResultBytes: options.maxResultBytes,
      defaultTtlSeconds: options.ttlSeconds,
      recentSimilar: options.recentSimilar,
    }),
  );
  // An option spelled `OP-N` (middleware set up before the rename) is read as the name once, here.
  const mechanism = mechanismName(options.mechanism ?? 'fail-closed');
  const secret = options.scopeSecret === undefined ? undefined : checkScopeSecret(options.scopeSecret);

  return async (args, extra): Promise<WithMeta<R>> => {
    const host = hostIntent((extra as { _meta?: unknown } | undefined)?._meta, options.operation);
    if (!host.ok) return errorResult('intent_invalid', `${host.message}. Nothing was executed.`) as WithMeta<R>;
    if (host.intent === undefined && options.keySource === 'intent')
      return errorResult('intent_missing', INTENT_REQUIRED) as WithMeta<R>;
    if (host.intent !== undefined) {
      // The host's intent wins over the model's key (intent.ts); the handler sees the derived key.
      const rest = withoutKey(args ?? {}, keyArgument);
      const derived = intentKey({ scope: host.intent, operation: options.operation, args: rest });
      args = { ...rest, [keyArgument]: derived } as A;
    }
    const key = args?.[keyArgument];
    if (key === undefined || key === null || key === '') {
      return errorResult(
        'idempotency_key_missing',
        `Missing required argument ${keyArgument}: this tool has side effects. Create a unique key for this intent (for example a UUID), keep it, and send the same key when you retry.`,
      ) as WithMeta<R>;
    }
    const rest = withoutKey(args, keyArgument);
    try {
      const scope = principalScope((options.scope ?? defaultScope)(extra), options.credentials?.(extra), secret);
      validateKey(key, { maxLength: options.keyMaxLength });
      const argsHash = hashArgs(rest);
      const id = `${scopeString(scope)}\n${key as string}`;
      const hit = window.get(id, now());
      if (hit && hit.argsHash === argsHash) {
        idem.answered({ operation: options.operation, mechanism }, 'window', argsHash);
        return replayResult(hit.result, new Date(hit.calledAt));
      }
      // Args differ (or no hit): the store decides — it raises the conflict with the stored row.
      const run = await idem.run<R>(
        {
          operation: options.operation,
          key: key as string,
          scope,
          args: rest,
          mechanism,
          ttlSeconds: options.ttlSeconds,
        },
        async () => handler(args, extra),
      );
      window.set(id, { argsHash, result: run.result, calledAt: run.originalCalledAt.getTime(), storedAt: now() });
      if (run.wasReplay) return replayResult(run.result, run.originalCalledAt);
      if (run.replayable === false) run.result = unreplayable(run.result);
      return run.recentSimilar ? recentSimilarResult(run.result, run.recentSimilar, now(), keyArgument) : run.result;
    } catch (err) {
      return toToolError(err, keyArgument) as WithMeta<R>;
    }
  };
}
