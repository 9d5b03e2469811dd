/**
 * The one execution engine, shared by both call paths so they cannot drift. An `OperationDescription` is plain data about one HTTP operation;
 * `executeOperation(description, input, options)` is the only code that turns it plus a grouped input
 * (`{ path, query, header, cookie, body }`, the generated client's request shape) into an effect: it resolves
 * and validates the key, scopes it, places it in the carrier, runs the mechanism (native key, a dedup-store
 * run, a saga, or a plain call) and makes the HTTP call. Generated client methods and the tool runtime both
 * call it, so the two paths cannot drift.
 */
import { sha256Hex } from '../core/canonical-json.js';
import { createIdempotency, type Idempotency, type RunContext, type RunResult } from '../core/idempotency.js';
import { scopeString, validateKey, type KeyScope } from '../core/keys.js';
import { mechanismName, type LegacyMechanism, type MechanismInput } from '../core/mechanism.js';
import { InvalidArgumentsError } from '../core/errors.js';
import { digestBlobs } from '../core/binary.js';
import type { BodyType, QueryStyle } from '../http/body.js';
import {
  createHttpCaller,
  type HttpCaller,
  type HttpCallerOptions,
  type HttpRequest,
  type KeyCarrier,
} from '../http/caller.js';
import { checkHeaders, expandPath } from '../http/request-check.js';
import type { ResponseType } from '../http/response.js';
import { runSaga } from '../saga/run.js';
import type { DedupRow, DedupStore } from '../store/types.js';
import { IdempotencyOutcomeUnknownError } from '../core/errors.js';
import { resolveUnknown } from '../core/reconcile.js';
import { applyStamp, lookupRecord, referenceOf, settleUnknown, stampOf } from '../verify/lookup.js';
import type { SettleOptions, Verdict, VerificationPlan } from '../verify/types.js';
import {
  headersOf,
  mergeHeaders,
  nativeResult,
  resolveKey,
  type CallOptions,
  type NativeRunResult,
} from './support.js';
import type { ReplaySignals } from './replay.js';

/**
 * `none`: a plain call (a read, or a write classify refused and the client sends as is). `OP-1`…`OP-5` from
 * clients generated before the rename are read as the names (core/mechanism.ts).
 */
export type OperationMechanism = MechanismInput | 'none' | 'method-idempotent';

/** Everything the engine needs to know about one HTTP operation; JSON data, no functions. */
export interface OperationDescription {
  /** The spec's operation key (`POST /charges`): the dedup row's operation and an `HttpStatusError`'s. */
  readonly operation: string;
  readonly method: string;
  /** The spec's path template (`/charges/{charge_id}`). */
  readonly path: string;
  readonly mechanism: OperationMechanism;
  /** The template's declared path parameters, substituted from `input.path` (any other `{…}` stays literal). */
  readonly pathParams?: readonly string[];
  /**
   * The declared query parameter names: a name in `input.query` outside them is refused before anything is
   * sent. Absent (clients generated before the list existed): the query is sent as given.
   */
  readonly queryParams?: readonly string[];
  /** Query parameters whose array/object values are not written in brackets (see `QueryStyle`). */
  readonly queryStyles?: Readonly<Record<string, QueryStyle>>;
  /** The request body's encoding and, for a raw body, its media type; absent: no body. */
  readonly body?: { readonly encoding: BodyType; readonly mediaType?: string };
  /** What a 2xx body is read as, when the spec pins it (`blob` for a binary download). */
  readonly responseType?: ResponseType;
  /** native-key: where the API takes its own key (incl. the OASIS `firstSent` header). */
  readonly carrier?: KeyCarrier;
  /** native-key: the key limits the carrier admits; `apiLimits` names the ones the API itself declares. */
  readonly keyLimits?: {
    readonly minLength?: number;
    readonly maxLength?: number;
    readonly apiLimits?: readonly ('maxLength' | 'minLength')[];
  };
  /**
   * Where the key comes from when the caller passes none: `key` (a caller key is required), `given` (a key
   * or an intent scope), `content` (else the content hash: content-address). Default `given`.
   */
  readonly keyStrategy?: 'key' | 'given' | 'content';
  /** The body may hold Blobs: their bytes are hashed before the key and the args hash are derived. */
  readonly blobs?: boolean;
  readonly ttlSeconds?: number;
  /** saga: the inverse, and where each of its path parameters comes from. */
  readonly compensation?: Compensation;
  /** How to tell afterwards whether a call took effect, by reading the API (runtime/verify). */
  readonly verification?: VerificationPlan;
  /** native-key: what marks a replay in the API's answer besides the vendors' replay headers (client/replay.ts). */
  readonly replay?: ReplaySignals;
  /** Per HTTP attempt, in ms: replaces the client's or tool runtime's `timeoutMs` for this operation. */
  readonly timeoutMs?: number;
}

/**
 * A saga's inverse. `address` (generate time): each path parameter of the inverse ← a request value (`path`,
 * `query`, `body`) or a `response` field; `{}` for a singleton. Descriptions generated before it had only
 * `idParameter`, read as `{ [idParameter]: response id }`.
 */
export interface Compensation {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly idParameter?: string;
  readonly address?: Readonly<
    Record<string, { readonly in: 'path' | 'query' | 'body' | 'response'; readonly name: string }>
  >;
}

/** The grouped input: the generated client's `request` argument, and what the tool runtime routes flat arguments into. */
export interface OperationInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  header?: Record<string, unknown>;
  cookie?: Record<string, unknown>;
  body?: unknown;
}

/** What the engine runs on: made once per client or tool runtime (`createOperationContext`). */
export interface OperationContext {
  readonly http: HttpCaller;
  readonly idem?: Idempotency | undefined;
  readonly store?: DedupStore | undefined;
  /** The principal's namespace for stored keys, and for a native key's derived wire value. */
  readonly scope?: string | KeyScope | undefined;
  readonly saga?: { leaseMs?: number; waitMs?: number; pollMs?: number; now?: () => number; table?: string };
  /**
   * Settling an unknown outcome of a write that has a verification plan (runtime/verify): how often an absent
   * answer is re-read and how far apart; `false` turns verification off (the outcome stays unknown).
   */
  readonly verify?: SettleOptions | false;
}

export interface ExecuteOptions extends CallOptions {
  readonly context: OperationContext;
  /** An explicit key (persisted by the caller before the call). */
  readonly key?: string | undefined;
  /** Intent scope: the key is hash(scope, operation, input). */
  readonly scope?: KeyScope | undefined;
  /** Overrides the description's `keyStrategy` (the tool runtime accepts a key or an intent for every write). */
  readonly keyStrategy?: 'key' | 'given' | 'content';
  /** Overrides the context's principal namespace for this call. */
  readonly namespace?: string | KeyScope | undefined;
  /**
   * Credentials from the caller's configuration (the tool runtime's `auth`): sent on the call, never hashed into
   * the dedup row. A `cookie` header is added to the request's own cookies. (A saga's inverse is sent only by
   * `reconcileSagas` / `compensateSaga`, through the handler their caller passes: its credentials are that handler's.)
   */
  readonly credentials?: {
    readonly headers?: Readonly<Record<string, string>>;
    readonly query?: Readonly<Record<string, string>>;
  };
}

/** A write's outcome (docs/concepts.md#replay); a plain call's is `{ result, wasReplay: false }`. */
export type OperationResult<T = unknown> = Omit<RunResult<T>, 'originalCalledAt'> & { originalCalledAt?: Date };

function missingStore(d: OperationDescription): TypeError {
  return new TypeError(
    `${d.operation} needs a dedup store (it has no native key): create the client with { store } (createToolRuntime: { store }), e.g. createSqliteStore({ filename }) from @idemgen/runtime/sqlite after running the generated migration`,
  );
}

/** native-key with a carrier on the wire: the API dedupes the repeat; the engine keeps no row. */
function isNativeKey(d: OperationDescription): boolean {
  return d.mechanism === 'native-key' && d.carrier !== undefined;
}

/**
 * native-key keeps no row, so the API's own dedup is the only namespace: two principals sending the same key to one
 * API account would replay each other's results. With a namespace, the wire key is derived from (namespace,
 * key): stable across one principal's retries, distinct between principals, within the carrier's limits.
 */
function wireKey(key: string, namespace: string | KeyScope | undefined, d: OperationDescription): string {
  const s = scopeString(namespace);
  if (s === '') return key;
  const limits = d.keyLimits;
  const length = Math.max(limits?.minLength ?? 16, Math.min(limits?.maxLength ?? 64, 64));
  return sha256Hex(`${s}\n${key}`).slice(0, length);
}

/** A request as built and checked, before the mechanism (and a native key) are added. */
export type CheckedRequest = Omit<HttpRequest, 'mechanism'>;
type RequestOptions = Pick<ExecuteOptions, 'headers' | 'signal' | 'credentials'>;

/**
 * The request every mechanism sends — path parameters, query, headers, credentials, body; no key — built once
 * and checked before any key is resolved or claimed: a path value that would move the request (empty, `.`,
 * `..`, encoded or not), a query name the operation does not declare, a header it cannot carry intact. A
 * refusal is an `InvalidArgumentsError` naming the argument (`path.id`, `query.x`, `header.X-Y`): nothing was
 * sent and no key was used.
 */
export function checkedRequest(
  d: OperationDescription,
  input: OperationInput,
  options: RequestOptions = {},
): CheckedRequest {
  const req: CheckedRequest = {
    method: d.method,
    path: d.path,
    bodyType: d.body?.encoding ?? 'none',
    operation: d.operation,
  };
  if (d.pathParams !== undefined && d.pathParams.length > 0) {
    const given = input.path ?? {};
    req.pathParams = Object.fromEntries(d.pathParams.map((n) => [n, given[n]]));
    expandPath(req.path, req.pathParams);
  }
  if (input.query !== undefined && d.queryParams !== undefined) {
    const declared = new Set(d.queryParams);
    const stray = Object.keys(input.query).find((n) => !declared.has(n) && input.query![n] !== undefined);
    if (stray !== undefined) {
      const known = d.queryParams.length > 0 ? `it takes ${d.queryParams.join(', ')}` : 'it takes none';
      throw new InvalidArgumentsError(
        `${d.operation}: query parameter ${JSON.stringify(stray)} is not declared by the operation (${known}); nothing was sent`,
        `query.${stray}`,
      );
    }
  }
  const credentialQuery = options.credentials?.query;
  if (input.query !== undefined || credentialQuery !== undefined) req.query = { ...input.query, ...credentialQuery };
  if (d.queryStyles !== undefined) req.queryStyles = d.queryStyles;
  // Per-call headers go after the spec's header parameters; the key carrier still wins (HttpCaller).
  const own =
    input.header !== undefined || input.cookie !== undefined
      ? headersOf(input.header, input.cookie, options.headers)
      : options.headers;
  // Credentials last: they replace a request header of the same name in any case (mergeHeaders).
  const credentialHeaders = options.credentials?.headers;
  const headers = credentialHeaders === undefined ? own : mergeHeaders(own, credentialHeaders);
  checkHeaders(headers);
  if (headers !== undefined) req.headers = headers;
  if (d.body !== undefined && input.body !== undefined) req.body = input.body;
  // A raw body's media type, and a JSON body's when it is not plain `application/json` (JSON Patch, merge-patch).
  if (d.body?.mediaType !== undefined && d.body.encoding !== 'form' && d.body.encoding !== 'multipart')
    req.contentType = d.body.mediaType;
  if (d.responseType !== undefined) req.responseType = d.responseType;
  if (d.timeoutMs !== undefined) req.timeoutMs = d.timeoutMs;
  if (options.signal !== undefined) req.signal = options.signal;
  return req;
}

async function native(
  d: OperationDescription,
  key: string,
  request: CheckedRequest,
  o: ExecuteOptions,
): Promise<OperationResult> {
  const limits = d.keyLimits ?? {};
  // Checked before the request: a key the server refuses or truncates would leave the retry undeduped.
  const valid = validateKey(key, { ...limits, operation: d.operation });
  const wire = wireKey(valid, o.namespace ?? o.context.scope, d);
  const res = await o.context.http.send({ ...request, key: wire, carrier: d.carrier!, mechanism: 'native-key' });
  // A native replay is read from the answer: a replay header, else a creation time older than the request
  // (docs/concepts.md#replay); never the replay's own Date.
  return nativeResult(res, d.replay);
}

function pick(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const seg of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[seg];
  }
  return at;
}

const idText = (v: unknown): string | undefined =>
  (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v)) ? String(v) : undefined;

/**
 * The external id a saga records: what addresses its inverse. One parameter: its value (the created thing's
 * id); several or none (a singleton): the inverse's expanded path. `null`: the inverse cannot be addressed
 * from this call (no compensation, or a value missing): the write is done and cannot be undone.
 */
function externalIdOf(d: OperationDescription, input: OperationInput, response: unknown): string | null {
  const c = d.compensation;
  if (c === undefined) return idText(pick(response, ['id'])) ?? null;
  const address = c.address ?? (c.idParameter !== undefined ? { [c.idParameter]: { in: 'response', name: 'id' } } : {});
  const values: Record<string, string> = {};
  for (const [param, from] of Object.entries(address)) {
    const raw =
      from.in === 'response'
        ? pick(response, from.name.split('.'))
        : from.in === 'body'
          ? pick(input.body, from.name.split('.'))
          : input[from.in]?.[from.name];
    const text = idText(raw);
    if (text === undefined) return null;
    values[param] = text;
  }
  const names = Object.keys(values);
  if (names.length === 1) return values[names[0]!]!;
  return c.path.replace(/\{([^}]+)\}/g, (m, n: string) => (n in values ? encodeURIComponent(values[n]!) : m));
}

/** The credentials and headers a verification read sends: the write's own, never its body. */
function lookupCall(request: CheckedRequest, o: ExecuteOptions) {
  const out: { headers?: Record<string, string>; query?: Record<string, string>; signal?: AbortSignal } = {};
  if (o.credentials?.headers !== undefined) out.headers = { ...o.credentials.headers };
  if (o.credentials?.query !== undefined) out.query = { ...o.credentials.query };
  if (request.signal !== undefined) out.signal = request.signal;
  return out;
}

async function saga(
  d: OperationDescription,
  key: string,
  input: OperationInput,
  request: CheckedRequest,
  o: ExecuteOptions,
): Promise<OperationResult> {
  const store = o.context.store;
  if (store === undefined) throw missingStore(d);
  const comp = d.compensation;
  const http = o.context.http;
  const plan = o.context.verify === false ? undefined : d.verification;
  let verdict: Verdict | undefined;
  if (plan !== undefined) {
    // A client-reference write carries its stamp from the first attempt on: the lookup searches for it.
    const stamped = applyStamp(plan, input, stampOf(key, scopeString(o.namespace ?? o.context.scope)));
    if (stamped !== input) {
      input = stamped;
      request = { ...request, body: stamped.body };
    }
  }
  const req = {
    operation: d.operation,
    key,
    scope: o.namespace ?? o.context.scope,
    args: input,
    ...o.context.saga,
    ...(comp !== undefined ? { compensationOperation: comp.operation } : {}),
    ...(d.ttlSeconds !== undefined ? { ttlSeconds: d.ttlSeconds } : {}),
  };
  const handlers = {
    call: (ctx: RunContext) =>
      http
        .send({ ...request, mechanism: 'saga', run: ctx })
        .then((res) => ({ externalId: externalIdOf(d, input, res.body), result: res.body })),
    ...(plan !== undefined
      ? {
          reconcile: async (row: { createdAt: number }) => {
            const stamp = stampOf(key, scopeString(req.scope));
            verdict = await settleUnknown(
              http,
              plan,
              {
                input,
                reference: referenceOf(plan, input, stamp),
                claimedAt: row.createdAt,
                ...lookupCall(request, o),
              },
              o.context.verify || {},
            );
            if (verdict.status === 'found')
              return {
                status: 'happened' as const,
                externalId: externalIdOf(d, input, verdict.resource),
                result: verdict.resource,
              };
            return { status: verdict.status === 'absent' ? ('not-happened' as const) : ('unknown' as const) };
          },
        }
      : {}),
  };
  const marked = (out: OperationResult): OperationResult => {
    const v = verdict;
    const done: OperationResult =
      v?.status === 'found' && out.wasReplay ? { ...out, verified: { shape: plan!.shape, evidence: v.evidence } } : out;
    return (out as { externalId?: string | null }).externalId ? done : { ...done, cannotUndo: true };
  };
  try {
    return marked(await runSaga(store, req, handlers));
  } catch (err) {
    // The answer was lost: the row is pending past its lease now, so a second pass settles it by the plan.
    if (!(err instanceof IdempotencyOutcomeUnknownError) || plan === undefined || verdict !== undefined) throw err;
    return marked(await runSaga(store, req, handlers));
  }
}

/**
 * A dedup-table or fail-closed write with a verification plan: the call is stamped (client-reference), and an
 * unknown outcome — the answer lost, or a pending row past its lease on a retry — is settled by the plan's
 * lookup before answering. Found: the row completes with the found resource (`wasReplay`, `verified`). Proven
 * absent: the key is released and the call runs once more with the same stamp. Anything else: unknown.
 */
async function verified(
  d: OperationDescription,
  plan: VerificationPlan,
  key: string,
  input: OperationInput,
  request: CheckedRequest,
  o: ExecuteOptions,
  run: (input: OperationInput, request: CheckedRequest) => Promise<OperationResult>,
): Promise<OperationResult> {
  const scope = scopeString(o.namespace ?? o.context.scope);
  const stamp = stampOf(key, scope);
  const stamped = applyStamp(plan, input, stamp);
  const req = stamped === input ? request : { ...request, body: stamped.body };
  try {
    return await run(stamped, req);
  } catch (err) {
    if (!(err instanceof IdempotencyOutcomeUnknownError)) throw err;
    const row = err.state as DedupRow | undefined;
    const store = o.context.store!;
    if (plan.shape === 'refused-duplicate' && plan.read === undefined) {
      const freed = await resolveUnknown(store, {
        key,
        scope,
        as: 'not-executed',
        by: 'idemgen verify',
        reason: 'refused-duplicate: the API refuses a second create of the same identifier; the repeat decides',
      });
      if (!freed.resolved) throw err;
      return repeatRefused(d, plan, stamped, req, run, row, err);
    }
    const v = await settleUnknown(
      o.context.http,
      plan,
      {
        input: stamped,
        reference: referenceOf(plan, stamped, stamp),
        ...(row ? { claimedAt: row.createdAt } : {}),
        ...lookupCall(request, o),
      },
      o.context.verify || {},
    );
    const reason = `${plan.shape}: ${v.evidence}`;
    if (v.status === 'found') {
      const done = await resolveUnknown(store, {
        key,
        scope,
        as: 'completed',
        result: v.resource,
        by: 'idemgen verify',
        reason,
      });
      if (!done.resolved) throw err;
      return {
        result: v.resource,
        wasReplay: true,
        originalCalledAt: new Date(done.row?.createdAt ?? Date.now()),
        verified: { shape: plan.shape, evidence: v.evidence },
      };
    }
    if (v.status === 'absent') {
      const freed = await resolveUnknown(store, { key, scope, as: 'not-executed', by: 'idemgen verify', reason });
      if (!freed.resolved) throw err;
      return run(stamped, req); // once more, same stamp; a second unknown is answered as unknown
    }
    err.message = `${err.message}; verification by ${plan.shape} could not settle it (${v.evidence})`;
    throw err;
  }
}

/** refused-duplicate: the repeat either does it now, or is refused because the first call did it. */
async function repeatRefused(
  d: OperationDescription,
  plan: Extract<VerificationPlan, { shape: 'refused-duplicate' }>,
  input: OperationInput,
  request: CheckedRequest,
  run: (input: OperationInput, request: CheckedRequest) => Promise<OperationResult>,
  row: DedupRow | undefined,
  first: Error,
): Promise<OperationResult> {
  try {
    return await run(input, request);
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (typeof status !== 'number' || !plan.statuses.includes(status)) throw err;
    return {
      result: (err as { body?: unknown }).body ?? null,
      wasReplay: true,
      originalCalledAt: new Date(row?.createdAt ?? Date.now()),
      verified: {
        shape: plan.shape,
        evidence: `${d.operation} repeated: the API refused it as a duplicate (${status}) after ${first.message}`,
      },
    };
  }
}

/** Descriptions whose mechanism is read as a name, one per description object (a generated `ops` entry). */
const named = new WeakMap<OperationDescription, NamedDescription>();

/** A description whose mechanism is a name (never `OP-N`): what the engine's inner steps take. */
export type NamedDescription = OperationDescription & {
  readonly mechanism: Exclude<OperationMechanism, LegacyMechanism>;
};

/**
 * The entry for generated descriptions: clients generated before the rename spell the mechanism `OP-1`…`OP-5`,
 * read here as the names, once per description object. Inner layers (`send`, the dedup run) take names only.
 */
function nameOf(given: OperationDescription): NamedDescription {
  if (!given.mechanism.startsWith('OP-')) return given as NamedDescription;
  let d = named.get(given);
  if (d === undefined) {
    d = { ...given, mechanism: mechanismName(given.mechanism) } as NamedDescription;
    named.set(given, d);
  }
  return d;
}

/**
 * Runs one operation: the request built and checked (`checkedRequest`) before any key, then a plain call for
 * `none`; for a write, the key (explicit, intent, or content hash per the strategy; never a fresh random one)
 * and then the native carrier, the saga, or one dedup-store run.
 */
export async function executeOperation(
  given: OperationDescription,
  input: OperationInput,
  options: ExecuteOptions,
): Promise<OperationResult> {
  const d = nameOf(given);
  return runChecked(d, input, checkedRequest(d, input, options), options);
}

/** `executeOperation` once the description is named and its request checked (the tool runtime checks it itself, to answer a refusal as bad arguments). */
export async function runChecked(
  d: NamedDescription,
  input: OperationInput,
  request: CheckedRequest,
  options: ExecuteOptions,
): Promise<OperationResult> {
  const http = options.context.http;
  if (d.mechanism === 'none') {
    const res = await http.send({ ...request, mechanism: 'none' });
    return { result: res.body, wasReplay: false };
  }
  // A PUT/DELETE safe to repeat by method: no key, no store; the HTTP layer retries an ambiguous outcome and
  // reports a retried DELETE that finds the resource gone as done (core/method-idempotent.ts).
  if (d.mechanism === 'method-idempotent')
    return nativeResult(await http.send({ ...request, mechanism: 'method-idempotent' }));
  // A Blob has no JSON form: its bytes are read and hashed before the key and the args hash are derived (docs/concepts.md#outcomes).
  if (d.blobs === true) await digestBlobs(input);
  const key = resolveKey(d.operation, input, options, options.keyStrategy ?? d.keyStrategy ?? 'given');
  if (isNativeKey(d)) return native(d, key, request, options);
  if (d.mechanism === 'saga') return saga(d, key, input, request, options);
  const idem = options.context.idem;
  if (idem === undefined) throw missingStore(d);
  const mechanism = d.mechanism;
  const plan = options.context.verify === false ? undefined : d.verification;
  const verifiable = plan !== undefined && (mechanism === 'fail-closed' || mechanism === 'dedup-table');
  const run = (args: OperationInput, req: CheckedRequest) =>
    idem.run(
      {
        operation: d.operation,
        key,
        scope: options.namespace ?? options.context.scope,
        args,
        mechanism,
        ...(d.ttlSeconds !== undefined ? { ttlSeconds: d.ttlSeconds } : {}),
        ...(verifiable
          ? {
              lookup: lookupRecord(
                plan,
                args,
                referenceOf(plan, args, stampOf(key, scopeString(options.namespace ?? options.context.scope))),
              ),
            }
          : {}),
      },
      (ctx) => http.send({ ...req, mechanism, run: ctx }).then((res) => res.body),
    );
  if (verifiable) return verified(d, plan, key, input, request, options, run);
  return run(input, request);
}

/** What a generated client is created with: the HTTP layer's options, the dedup store and the principal namespace. */
export interface OperationClientOptions extends HttpCallerOptions {
  /** Dedup store for the writes that have no native key. */
  store?: DedupStore | undefined;
  /** Tenant/principal namespace of stored keys (and of native keys' derived wire values). */
  scope?: string | undefined;
  /** Settling unknown outcomes by the operations' verification plans: re-reads and their spacing; `false`: off. */
  verify?: SettleOptions | false | undefined;
}

/** Per-call options of a write: a key or an intent scope, extra headers, an AbortSignal. */
export type WriteCallOptions = CallOptions & { key?: string | undefined; scope?: KeyScope | undefined };

/**
 * The typed face a generated client calls: every method is one line, `this.#engine.read|write|writeNative(ops.x,
 * request, options)`, over the one `executeOperation`.
 */
export interface OperationEngine {
  read<T>(d: OperationDescription, input: OperationInput, options?: CallOptions): Promise<T>;
  write<T>(d: OperationDescription, input: OperationInput, options?: WriteCallOptions): Promise<RunResult<T>>;
  writeNative<T>(
    d: OperationDescription,
    input: OperationInput,
    options?: WriteCallOptions,
  ): Promise<NativeRunResult<T>>;
}

export function createOperationEngine(options: OperationClientOptions): OperationEngine {
  const context: OperationContext = {
    http: createHttpCaller(options),
    store: options.store,
    idem: options.store ? createIdempotency({ store: options.store }) : undefined,
    scope: options.scope,
    ...(options.verify !== undefined ? { verify: options.verify } : {}),
  };
  // Only the per-call options a caller may set: the engine's own (`keyStrategy`, `namespace`, …) never come from a call.
  const run = (d: OperationDescription, input: OperationInput, o: WriteCallOptions | undefined) =>
    executeOperation(d, input ?? {}, {
      context,
      key: o?.key,
      scope: o?.scope,
      ...(o?.headers !== undefined ? { headers: o.headers } : {}),
      ...(o?.signal !== undefined ? { signal: o.signal } : {}),
    });
  return {
    read: (d, input, o) => run(d, input, o).then((r) => r.result as never),
    write: (d, input, o) => run(d, input, o) as Promise<RunResult<never>>,
    writeNative: (d, input, o) => run(d, input, o) as Promise<NativeRunResult<never>>,
  };
}
