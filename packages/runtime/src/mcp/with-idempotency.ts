/**
 * tool-dedup at the MCP tool boundary (docs/concepts.md#tool-dedup): MCP does not promise at-most-once delivery, so a
 * side-effecting tool requires an `idempotency_key` argument and the server dedupes on it — an
 * in-process window in front of the persistent dedup store, which keeps the guarantee across restarts.
 * Wraps an MCP SDK tool handler `(args, extra) => CallToolResult`.
 */
import { mechanismName, type MechanismInput } from '../core/mechanism.js';
import { hashArgs } from '../core/canonical-json.js';
import { createIdempotency, type Idempotency } from '../core/idempotency.js';
import { KEY_ARGUMENT, withoutKeyArgument } from '../tools/key-argument.js';
import { toToolError } from '../tools/outcome.js';
import type { ToolCallError } from '../tools/types.js';
import { intentKey, scopeString, validateKey, type KeyScope } from '../core/keys.js';
import { checkScopeSecret, principalScope, type CallerCredentials } from '../core/principal.js';
import { resolveCaller } from './caller.js';
import type { DedupStore } from '../store/types.js';
import type { RecentSimilarOptions } from '../core/recent-similar.js';
import {
  errorResult,
  type MiddlewareErrorCode,
  recentSimilarResult,
  replayResult,
  unreplayable,
  type ToolResultLike,
} from './tool-result.js';
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

/** `createIdempotency` spreads its options over its defaults: an explicit `undefined` must not erase one. */
function definedOnly<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/** A call refused before the store or the handler saw it: nothing ran; corrected, it may be sent again. */
const REFUSED = { executed: 'no', retry_same_key: true } as const;

/** A runtime error as an `isError` tool result: the tool runtime's one translator, rendered for MCP. */
function toToolResult(error: ToolCallError): ToolResultLike {
  const { message, ...data } = error;
  return errorResult(data.code as MiddlewareErrorCode, message, data);
}

export function withIdempotency<A extends Record<string, unknown>, E, R extends ToolResultLike>(
  handler: Handler<A, E, R>,
  options: WithIdempotencyOptions<E>,
): (args: A, extra: E) => Promise<WithMeta<R>> {
  const keyArgument = options.keyArgument ?? KEY_ARGUMENT;
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
    if (!host.ok)
      return errorResult('intent_invalid', `${host.message}. Nothing was executed.`, REFUSED) as WithMeta<R>;
    if (host.intent === undefined && options.keySource === 'intent')
      return errorResult('intent_missing', INTENT_REQUIRED, REFUSED) as WithMeta<R>;
    if (host.intent !== undefined) {
      // The host's intent wins over the model's key (intent.ts); the handler sees the derived key.
      const rest = withoutKeyArgument(args ?? {}, keyArgument);
      const derived = intentKey({ scope: host.intent, operation: options.operation, args: rest });
      args = { ...rest, [keyArgument]: derived } as A;
    }
    const key = args?.[keyArgument];
    if (key === undefined || key === null || key === '') {
      return errorResult(
        'idempotency_key_missing',
        `Missing required argument ${keyArgument}: this tool has side effects. Create a unique key for this intent (for example a UUID), keep it, and send the same key when you retry.`,
        REFUSED,
      ) as WithMeta<R>;
    }
    const rest = withoutKeyArgument(args, keyArgument);
    const caller = resolveCaller(extra, options);
    if (!caller.ok) return toToolResult(caller.error) as WithMeta<R>;
    try {
      const scope = principalScope(caller.scope, caller.credentials, secret);
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
      return toToolResult(toToolError(err, 'write', false, keyArgument)) as WithMeta<R>;
    }
  };
}
