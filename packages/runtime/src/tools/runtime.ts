/**
 * `createToolRuntime`: model tool calls → HTTP effects, from `ToolBinding` data alone. Per call: decode the
 * model's dialect, validate against the input schema before anything else (bad arguments never touch the
 * key), take the key from the arguments (model-supplied, docs/concepts.md#tool-dedup) or derive it from the app's intent
 * (docs/concepts.md#repeated-intent), route flat arguments into the request, and run it through one dedup layer (execute.ts).
 */
import type { SettleOptions } from '../verify/types.js';
import { checkedRequest, runChecked, type CheckedRequest, type OperationContext } from '../client/operation.js';
import { createHttpCaller, type RetryPolicy } from '../http/caller.js';
import { InvalidArgumentsError, type IdempotencyOutcomeUnknownError } from '../core/errors.js';
import { createIdempotency, type IdempotencyOptions } from '../core/idempotency.js';
import type { KeyScope } from '../core/keys.js';
import { checkScopeSecret, principalScope, ScopeUnknownError } from '../core/principal.js';
import { isRetrySafe } from '../core/mechanism.js';
import type { DedupStore } from '../store/types.js';
import { resolveKey } from '../client/support.js';
import { scopeString } from '../core/keys.js';
import { credentialsFor, type Credentials, type ToolAuthOption } from './auth.js';
import { decodeArguments } from './decode.js';
import { MAX_ARGUMENT_DEPTH, tooDeep } from './depth.js';
import { isNative, operationOf } from './execute.js';
import { decodeBinding } from './legacy-binding.js';
import {
  askable,
  confirmMessage,
  declined,
  keyInUse,
  needsConfirmation,
  settleByHuman,
  stillUnknown,
  type ConfirmPolicy,
} from './human.js';
import { invalidArguments, toToolError } from './outcome.js';
import { routeArguments } from './route.js';
import type { ToolBinding, ToolCallContext, ToolCallError, ToolOutcome } from './types.js';
import { validateArguments, type ArgumentIssue } from './validate.js';

type Obj = Record<string, unknown>;
type Format = NonNullable<ToolCallContext['format']>;

export interface ToolRuntimeOptions {
  bindings: readonly ToolBinding[];
  /** The API's base URL (the spec's server is not trusted by default: it is data from the spec). */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Sent on every request (a User-Agent, an account header). */
  headers?: Record<string, string>;
  /** Credentials per security scheme; never taken from the model. */
  auth?: ToolAuthOption;
  /** Dedup store: required when a tool writes through idemgen's dedup (everything but native-key, method-idempotent and reads). */
  store?: DedupStore;
  /** The store's saga table (default `idemgen_saga`; config `sql.sagaTable`). */
  sagaTable?: string;
  /** The principal's namespace for stored keys when the call context names none. */
  scope?: string | KeyScope;
  /**
   * Keys the hash of a call's own credentials (`ToolCallContext.credentials`) into its dedup scope
   * (HMAC-SHA256; at least 32 bytes, the same on every instance sharing a store). A call carrying credentials
   * without it is refused, not run unscoped.
   */
  scopeSecret?: string | Uint8Array;
  /** Per HTTP attempt. */
  timeoutMs?: number;
  /** Transport retries, for native-key (the API dedupes the repeat) and method-idempotent PUT/DELETE only. */
  retry?: Partial<RetryPolicy>;
  /** Lease, wait and poll timings of the dedup state machine. */
  idempotency?: Pick<IdempotencyOptions, 'leaseMs' | 'waitMs' | 'pollMs' | 'maxResultBytes' | 'redact' | 'now'>;
  /**
   * Which writes wait for the person's yes when the call context carries a `human` (human.ts): `off` (default:
   * only operations marked physical or financial), `irreversible` (also every fail-closed write), `writes`.
   */
  confirm?: ConfirmPolicy;
  /** Settling unknown outcomes by the bindings' verification plans: re-reads and their spacing; `false`: off. */
  verify?: SettleOptions | false;
}

/** `Name`: the tool names a generated module knows (`PaymentsToolName`), so a typo does not compile. */
export interface ToolRuntime<Name extends string = string> {
  readonly bindings: readonly ToolBinding[];
  /** The tools in binding order. */
  list(): readonly ToolBinding[];
  /** By the name of any format (MCP, OpenAI, Anthropic), the client method name or the operation key. */
  find(name: string, format?: Format): ToolBinding | undefined;
  call(name: Name, args: unknown, ctx?: ToolCallContext): Promise<ToolOutcome>;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function invalid(issues: ArgumentIssue[], effect: ToolBinding['effect']): ToolOutcome {
  const list = issues.map((i) => `${i.pointer || '/'}: ${i.message}`).join('; ');
  // A read has no key: its message never mentions one.
  const again = effect === 'write' ? 'call again (the same key may be reused)' : 'call again';
  return invalidArguments(`Invalid arguments, nothing was executed: ${list}. Correct them and ${again}.`, issues);
}

/** The argument an `InvalidArgumentsError` from routing names (`path.customer` → `/customer`), else the root. */
function pointerOf(b: ToolBinding, err: InvalidArgumentsError): string {
  const [group, ...rest] = err.where.split('.');
  const name = rest.join('.');
  const route = b.routes.find((r) => r.in === group && r.name === name);
  return route === undefined ? '' : `/${route.property.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

function failed(error: ToolCallError): ToolOutcome {
  return { ok: false, error };
}

function nameIndex(bindings: readonly ToolBinding[]): Map<string, ToolBinding> {
  const index = new Map<string, ToolBinding>();
  // Later entries never shadow earlier ones: format names first, then method names, then operation keys.
  const add = (name: string, b: ToolBinding) => void (index.has(name) || index.set(name, b));
  for (const b of bindings) for (const n of [b.names.mcp, b.names.openai, b.names.anthropic]) add(n, b);
  for (const b of bindings) add(b.clientMethod, b);
  for (const b of bindings) add(b.operation, b);
  return index;
}

/**
 * The key: the server's (`ctx.key`, code mode), else the model's argument, else the app's intent (docs/concepts.md#repeated-intent; the engine hashes it with
 * the operation and the routed arguments) — never the tool-call id (docs/concepts.md#store-rules).
 */
function keyOf(
  b: ToolBinding,
  args: Obj,
  ctx: ToolCallContext,
  issues: ArgumentIssue[],
): { key?: string; scope?: KeyScope } {
  if (b.effect !== 'write' || b.keyProperty === undefined) return {};
  if (ctx.key !== undefined) return { key: ctx.key };
  const given = args[b.keyProperty];
  if (typeof given === 'string') return { key: given };
  if (ctx.intent !== undefined && Object.keys(ctx.intent).length > 0) return { scope: ctx.intent };
  issues.push({
    pointer: `/${b.keyProperty}`,
    message: 'required: create one key for this action (for example a UUID) and reuse it on every retry',
  });
  return {};
}

export function createToolRuntime<Name extends string = string>(options: ToolRuntimeOptions): ToolRuntime<Name> {
  // Bindings generated before the record (or the mechanism names) are read as current ones here.
  const bindings = options.bindings.map(decodeBinding);
  const index = nameIndex(bindings);
  const secret = options.scopeSecret === undefined ? undefined : checkScopeSecret(options.scopeSecret);
  const context = operationContext(options);

  function find(name: string, format?: Format): ToolBinding | undefined {
    if (format === 'openai' || format === 'anthropic' || format === 'mcp') {
      const exact = bindings.find((b) => b.names[format] === name);
      if (exact) return exact;
    }
    return index.get(name);
  }

  async function call(name: string, args: unknown, ctx: ToolCallContext = {}): Promise<ToolOutcome> {
    const b = find(name, ctx.format);
    if (b === undefined) {
      return failed({
        code: 'unknown_tool',
        executed: 'no',
        retry_same_key: true,
        message: `There is no tool named ${JSON.stringify(name)}.`,
      });
    }
    const checked = await checkedCall(b, args, ctx);
    if ('stop' in checked) return checked.stop;
    const planned = await plannedCall(checked.go, ctx, options, secret, context);
    if ('stop' in planned) return planned.stop;
    const plan = planned.go;
    const human = ctx.human;
    if (human !== undefined && needsConfirmation(b, options.confirm) && (await declinedBy(human, plan, ctx, options)))
      return failed(declined(b));
    const attempt = () => attemptCall(plan, ctx.signal);
    const first = await attempt();
    if (human === undefined || options.store === undefined || !askable(first.err, b, plan.retrySafe))
      return first.outcome;
    return settleThenRetry(
      human,
      options.store,
      first.err,
      first.outcome,
      attempt,
      plan,
      ctx.signal,
      options.idempotency?.now,
    );
  }

  return { bindings, list: () => bindings, find, call };
}

/** What every call of this runtime shares: the HTTP caller, the store and its dedup engine, the saga timings. */
function operationContext(options: ToolRuntimeOptions): OperationContext {
  const http = createHttpCaller({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
  });
  const timing = options.idempotency ?? {};
  return {
    http,
    store: options.store,
    idem: options.store ? createIdempotency({ ...timing, store: options.store }) : undefined,
    scope: options.scope,
    ...(options.verify !== undefined ? { verify: options.verify } : {}),
    saga: {
      leaseMs: timing.leaseMs,
      waitMs: timing.waitMs,
      pollMs: timing.pollMs,
      now: timing.now,
      ...(options.sagaTable !== undefined ? { table: options.sagaTable } : {}),
    },
  };
}

/** A step of a call: stop with this outcome, or go on with this value. */
type Step<T> = { stop: ToolOutcome } | { go: T };

/** A call whose arguments are checked: decoded, validated, keyed and routed. */
interface CheckedCall {
  b: ToolBinding;
  /** The arguments without the key argument. */
  rest: Obj;
  keyed: { key?: string; scope?: KeyScope };
  routed: ReturnType<typeof routeArguments>;
  description: ReturnType<typeof operationOf>;
  retrySafe: boolean;
}

/** Decode the model's dialect, validate before anything else (bad arguments never touch the key), key and route. */
async function checkedCall(b: ToolBinding, args: unknown, ctx: ToolCallContext): Promise<Step<CheckedCall>> {
  const deep = tooDeep(args);
  if (deep !== undefined)
    return { stop: invalid([{ pointer: deep, message: `nested deeper than ${MAX_ARGUMENT_DEPTH} levels` }], b.effect) };
  const decoded = decodeArguments(b, args ?? {}, ctx.format);
  if (!isObj(decoded))
    return { stop: invalid([{ pointer: '', message: 'arguments must be a JSON object' }], b.effect) };
  const issues = await validateArguments(b, decoded);
  const { [b.keyProperty ?? '']: _key, ...rest } = decoded;
  const keyed = keyOf(b, decoded, ctx, issues);
  if (issues.length > 0) return { stop: invalid(issues, b.effect) };
  const routed = routeArguments(b, b.keyProperty === undefined ? decoded : rest);
  const description = operationOf(b);
  // The one retry-safe set (core/mechanism.ts): after an unknown outcome the same key resolves it. A native key
  // is retry-safe only when the API receives it (a carrier).
  const retrySafe = b.effect === 'write' && isRetrySafe(b.mechanism) && (b.mechanism !== 'native-key' || isNative(b));
  return { go: { b, rest, keyed, routed, description, retrySafe } };
}

/** A checked call with its principal's namespace, its credentials and its built request: ready to run. */
interface PlannedCall extends CheckedCall {
  request: CheckedRequest;
  execute: Parameters<typeof runChecked>[3];
}

/** The principal's namespace, the credentials, and the request built and checked once, before the key is claimed. */
async function plannedCall(
  checked: CheckedCall,
  ctx: ToolCallContext,
  options: ToolRuntimeOptions,
  secret: ReturnType<typeof checkScopeSecret> | undefined,
  context: OperationContext,
): Promise<Step<PlannedCall>> {
  const { b, routed, keyed, retrySafe } = checked;
  let namespace: string | KeyScope | undefined;
  try {
    // The caller's own credentials choose the upstream account: a write's principal includes them (principal.ts).
    const own = b.effect === 'write' ? ctx.credentials : undefined;
    namespace = principalScope(ctx.scope ?? options.scope, own, secret);
  } catch (err) {
    if (err instanceof ScopeUnknownError) return { stop: failed(toToolError(err, 'write', false)) };
    throw err;
  }
  let credentials: Credentials | undefined;
  let request: CheckedRequest;
  try {
    // Credentials are sent, never stored: the routed arguments are hashed into the row, and the caller's own
    // credentials enter only the scope, as a keyed hash.
    credentials = await credentialsFor(b, options.auth, ctx.credentials);
  } catch (err) {
    return { stop: failed(toToolError(err, b.effect, retrySafe)) };
  }
  try {
    // Built and checked once, before the key is claimed: a path value that would move the request, a query
    // name the operation does not declare, a header it cannot carry intact.
    request = checkedRequest(checked.description, routed, credentials !== undefined ? { credentials } : {});
  } catch (err) {
    if (err instanceof InvalidArgumentsError)
      return { stop: invalid([{ pointer: pointerOf(b, err), message: err.message }], b.effect) };
    throw err;
  }
  const execute = {
    context,
    ...keyed,
    keyStrategy: 'given' as const,
    namespace,
    ...(credentials !== undefined ? { credentials } : {}),
  };
  return { go: { ...checked, request, execute } };
}

type Human = NonNullable<ToolCallContext['human']>;

/** Asked before the claim: a "no" leaves no row. A key a row already holds is a retry: no new question. */
async function declinedBy(
  human: Human,
  plan: PlannedCall,
  ctx: ToolCallContext,
  options: ToolRuntimeOptions,
): Promise<boolean> {
  const { b, routed, keyed } = plan;
  const now = (options.idempotency?.now ?? Date.now)();
  const inUse = await Promise.resolve()
    .then(() => {
      const key = resolveKey(b.operation, routed, keyed, 'given');
      return keyInUse(options.store, b, { scope: scopeString(plan.execute.namespace), key }, options.sagaTable, now);
    })
    .catch(() => false);
  return !inUse && !(await human.confirm(confirmMessage(b, plan.rest), ctx.signal));
}

type Attempt = { outcome: ToolOutcome; err?: unknown };

/** One run of the planned request through the dedup layer, as an outcome (and the error, when it failed). */
async function attemptCall(plan: PlannedCall, signal: AbortSignal | undefined): Promise<Attempt> {
  const { b, retrySafe } = plan;
  try {
    const pending = runChecked(plan.description, plan.routed, plan.request, plan.execute);
    const done = await raceSignal(pending, signal);
    if (done === ABORTED) return { outcome: failed(cancelled(b)) };
    const out: ToolOutcome = { ok: true, result: done.result, was_replay: done.wasReplay };
    if (done.replayEvidence !== undefined) out.replay_evidence = done.replayEvidence;
    if (done.originalCalledAt !== undefined) out.original_called_at = done.originalCalledAt.toISOString();
    if (done.replayable === false) out.replayable = false;
    if (done.verified !== undefined) out.verified = done.verified;
    if (done.cannotUndo === true) out.cannot_undo = true;
    return { outcome: out };
  } catch (err) {
    return { outcome: failed(toToolError(err, b.effect, retrySafe)), err };
  }
}

/** An unknown outcome the person can settle: their answer, and on "did not happen" one more run. */
async function settleThenRetry(
  human: Human,
  store: DedupStore,
  err: IdempotencyOutcomeUnknownError,
  first: ToolOutcome,
  attempt: () => Promise<Attempt>,
  plan: PlannedCall,
  signal: AbortSignal | undefined,
  now: (() => number) | undefined,
): Promise<ToolOutcome> {
  const settled = await settleByHuman(human, store, err, plan.b, plan.rest, now ?? Date.now, signal);
  if (settled.next === 'done' && settled.outcome !== undefined) return settled.outcome;
  if (settled.next === 'unknown') return settled.asked && !first.ok ? failed(stillUnknown(first.error)) : first;
  // "Did not happen": the key is free; the call runs once more (an unknown outcome again is answered as such).
  const again = await attempt();
  if (!again.outcome.ok) return again.outcome;
  return {
    ...again.outcome,
    resolved_by_user: { answer: 'did-not-happen', by: human.who, at: settled.at ?? '' },
    note: 'The user said the earlier attempt did not take effect; the call ran once more and this is its result.',
  };
}

const ABORTED = Symbol('aborted');

/**
 * The caller stopped waiting; the call itself runs on and is recorded, so a same-key retry gets its
 * result (or waits for it) instead of repeating it.
 */
function raceSignal<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (signal === undefined) return p;
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.resolve(ABORTED);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      p.catch(() => undefined);
      resolve(ABORTED);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function cancelled(b: ToolBinding): ToolCallError {
  return b.effect === 'read'
    ? {
        code: 'cancelled',
        executed: 'no',
        retry_same_key: true,
        message: 'The read was cancelled before it answered; it may be retried.',
      }
    : {
        code: 'cancelled',
        executed: 'unknown',
        retry_same_key: true,
        message:
          'The caller stopped waiting; the call may still complete. Retry with the SAME key to get its result; never use a new key for this action.',
      };
}
