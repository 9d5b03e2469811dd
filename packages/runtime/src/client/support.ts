/**
 * What every generated client shares, kept here once instead of in each `*.gen.ts`: the key-option types
 * that make a keyless write a compile error (docs/concepts.md#store-rules: a side effect never runs without a key decided
 * before the call), their run-time twin, and small response helpers.
 */
import type { RunResult } from '../core/idempotency.js';
import { HttpStatusError, type HttpResponse } from '../http/caller.js';
import { contentKey, intentKey, type KeyScope } from '../core/keys.js';
import { readReplay, type ReplaySignals } from './replay.js';

/**
 * Per-call options every generated method takes: extra headers for this request (e.g. `Stripe-Account`;
 * never the idempotency key's own header, which the key always wins) and an AbortSignal. An abort before
 * the request leaves is "not sent"; after, the outcome is unknown, as for a timeout.
 */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}
/** An explicit key, created once and persisted in your state before the call (docs/concepts.md#keys-and-scopes). */
export type CallerKey = { key: string; scope?: undefined } & CallOptions;
/** Intent scope (thread/turn/run/node ids): the key is hash(scope, operation, arguments) (docs/concepts.md#keys-and-scopes). */
export type IntentScope = { scope: Record<string, string>; key?: undefined } & CallOptions;
/** Either an explicit key or an intent scope; a write never runs without one. */
export type KeyOptions = CallerKey | IntentScope;
/**
 * `{ scope: {} }` names no intent: two intents with equal arguments would share one key. A literal empty
 * scope does not compile; a `Record<string, string>` is checked at run time by `resolveKey`.
 */
export type NonEmptyScope<O> = O extends { scope: infer S }
  ? string extends keyof S
    ? O
    : [keyof S] extends [never]
      ? { scope: { 'scope must name at least one id (thread, run, node)': string } }
      : O
  : O;

/**
 * `T` without the property at path `P` (`['data', 'attributes', 'idempotencyKey']`): the native key the
 * client writes there itself. Distributes over unions, so each `oneOf` variant keeps its own properties.
 */
export type OmitKeyPath<T, P extends readonly string[]> = T extends object
  ? P extends readonly [infer H extends string]
    ? Omit<T, H>
    : P extends readonly [infer H extends string, ...infer R extends string[]]
      ? { [K in keyof T]: K extends H ? OmitKeyPath<T[K], R> : T[K] }
      : T
  : T;

/**
 * An explicit key wins; else the intent hash of a non-empty scope + operation + arguments; a `content`
 * strategy falls back to the content hash (for `content-address`). Never a fresh random key (docs/concepts.md#store-rules). The run-time twin of
 * the types above: JavaScript callers (and `as any`) bypass the compile-time checks.
 */
export function resolveKey(
  operation: string,
  args: unknown,
  options: (CallOptions & { key?: string | undefined; scope?: KeyScope | undefined }) | undefined,
  strategy: 'key' | 'given' | 'content',
): string {
  const { key, scope } = options ?? {};
  if (key !== undefined && scope !== undefined)
    throw new TypeError(`${operation}: pass { key } or { scope }, not both`);
  if (key !== undefined) return key;
  if (strategy === 'key')
    throw new TypeError(`${operation}: pass { key }, created and persisted in your state before the call`);
  if (scope !== undefined) {
    if (typeof scope !== 'object' || scope === null || Object.keys(scope).length === 0) {
      throw new TypeError(
        `${operation}: { scope } must name at least one id (thread, run, node); an empty scope would key the call by its arguments alone`,
      );
    }
    return intentKey({ scope, operation, args });
  }
  if (strategy === 'content') return contentKey({ operation, args });
  throw new TypeError(`${operation}: pass { key } or { scope }; a write never runs without one`);
}

/**
 * docs/concepts.md#replay for a native-key call. The server keeps the record, so the time of the original call
 * is known only when the answer carries it (a creation time that proved the replay): a replay's own `Date`
 * header is the time of the replay, not of the first call, and is never used. `originalCalledAt` is therefore
 * set on a first call (now), on a replay recognised by its creation time, and left out otherwise.
 */
export type NativeRunResult<T> = Omit<RunResult<T>, 'originalCalledAt'> & { originalCalledAt?: Date };

/**
 * `native-key`: the server dedupes; a replay is read from its answer (client/replay.ts: a replay header, else a
 * creation time older than the request). `method-idempotent` (no key, no store): a replay is a retried DELETE
 * that found the resource gone (`res.replayed`, result `null`).
 */
export function nativeResult<T>(
  res: HttpResponse,
  signals?: ReplaySignals,
  calledAt: Date = new Date(),
): NativeRunResult<T> {
  if (res.replayed === true) return { result: res.body as T, wasReplay: true, replayEvidence: 'gone-after-retry' };
  const replay = readReplay(res, signals);
  if (replay === undefined) return { result: res.body as T, wasReplay: false, originalCalledAt: calledAt };
  const out: NativeRunResult<T> = { result: res.body as T, wasReplay: true, replayEvidence: replay.evidence };
  if (replay.originalCalledAt !== undefined) out.originalCalledAt = replay.originalCalledAt;
  return out;
}

/**
 * `saga`: the id the downstream assigned, recorded so a duplicate returns it and reconcile can compensate it.
 * Thrown inside the saga's call, after the request: the row stays pending and the caller gets
 * IdempotencyOutcomeUnknownError, so the effect is reconciled, never silently repeated.
 */
export function externalIdOf(operation: string, result: unknown): string {
  const id = typeof result === 'object' && result !== null ? (result as { id?: unknown }).id : undefined;
  if ((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id))) return String(id);
  throw new Error(
    `${operation}: the response has no id, so the saga cannot record what to compensate; the call was made: reconcile it, do not retry`,
  );
}

/** A header parameter in OpenAPI's `simple` style: `a,b` for an array, `k,v,k2,v2` for an object. */
function headerText(v: unknown): string {
  const text = (x: unknown): string => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x));
  if (Array.isArray(v)) return v.map(text).join(',');
  if (typeof v === 'object' && v !== null && !(v instanceof Date))
    return Object.entries(v)
      .flatMap(([k, x]) => [k, text(x)])
      .join(',');
  return String(v);
}

/**
 * Header layers merged the way HTTP reads names, without case: a later layer's header replaces an earlier one
 * of the same name however it is spelled (a credential's `authorization` never travels beside a model-supplied
 * `Authorization`), and every layer's cookie goes into one `cookie` header joined by `; ` (two cookie headers,
 * or one joined by `, `, are read differently by servers).
 */
export function mergeHeaders(...layers: (Readonly<Record<string, string>> | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  const nameOf = new Map<string, string>();
  const cookies: string[] = [];
  for (const layer of layers)
    for (const [name, value] of Object.entries(layer ?? {})) {
      const lower = name.toLowerCase();
      if (lower === 'cookie') {
        cookies.push(value);
        continue;
      }
      const before = nameOf.get(lower);
      if (before !== undefined) delete out[before];
      nameOf.set(lower, name);
      out[name] = value;
    }
  if (cookies.length > 0) out.cookie = cookies.join('; ');
  return out;
}

/**
 * Header and cookie parameters as the string map fetch sends (RFC 6265 §4.2 cookie pairs), then per-call
 * `extra`, merged by `mergeHeaders`: `extra` wins over a header parameter of the same name in any case, and
 * cookie parameters, a `Cookie` header parameter and a per-call `cookie` share one `cookie` header.
 */
export function headersOf(
  header: Record<string, unknown> | undefined,
  cookie: Record<string, unknown> | undefined,
  extra?: Record<string, string>,
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(header ?? {})) if (v !== undefined && v !== null) params[k] = headerText(v);
  const jar = Object.entries(cookie ?? {})
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return mergeHeaders(params, jar.length > 0 ? { cookie: jar.join('; ') } : undefined, extra);
}

/**
 * The run-time twin of the `this: Client<DedupStore>` type on writes that need a store: a JavaScript
 * caller (or `as any`) that created the client without one gets this error, not a TypeError deep inside.
 */
export function needStore<T>(value: T | undefined, operation: string): T {
  if (value === undefined) {
    throw new TypeError(
      `${operation} needs a dedup store (it has no native key): create the client with { store }, e.g. createSqliteStore({ filename }) from @idemgen/runtime/sqlite after running the generated migration`,
    );
  }
  return value;
}

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
type NumberOf<T> = T extends `${infer N extends number}` ? N : never;
/** The statuses a key of an errors-map entry stands for: `404` itself, `"4XX"` → 400 … 499, `default` → any. */
type StatusOf<K> = K extends number
  ? K
  : Uppercase<K & string> extends `${infer C extends 1 | 2 | 3 | 4 | 5}XX`
    ? NumberOf<`${C}${Digit}${Digit}`>
    : number;

/**
 * An `HttpStatusError` typed by the error responses a spec declares for one operation (`Errors`: status →
 * body, as a generated errors map's entry `PaymentsErrors["POST /charges"]`): checking `status` narrows `body` (a `default` entry matches any status).
 * With no declared error response it is a plain `HttpStatusError`.
 */
export type HttpErrorOf<Errors> = [keyof Errors] extends [never]
  ? HttpStatusError
  : HttpStatusError & { [K in keyof Errors]: { readonly status: StatusOf<K>; readonly body: Errors[K] } }[keyof Errors];

/**
 * `err` when it is the HTTP status error of a call to `operation` (its `HttpRequest.operation`), else
 * `undefined`. The typing is the spec's word for the body: the runtime parsed it by content type, not checked it.
 */
export function httpErrorOf<Errors>(err: unknown, operation: string): HttpErrorOf<Errors> | undefined {
  return err instanceof HttpStatusError && err.operation === operation ? (err as HttpErrorOf<Errors>) : undefined;
}
