/**
 * The one execution engine (issue 26.1). An `OperationDescription` is plain data about one HTTP operation;
 * `executeOperation(description, input, options)` is the only code that turns it plus a grouped input
 * (`{ path, query, header, cookie, body }`, the generated client's request shape) into an effect: it resolves
 * and validates the key, scopes it, places it in the carrier, runs the mechanism (native key, a dedup-store
 * run, a saga, or a plain call) and makes the HTTP call. Generated client methods and the tool runtime both
 * call it, so the two paths cannot drift.
 */
import { sha256Hex } from '../core/canonical-json.js';
import { createIdempotency, type Idempotency, type RunResult } from '../core/idempotency.js';
import { scopeString, validateKey, type KeyScope } from '../core/keys.js';
import { mechanismName, type LegacyMechanism, type MechanismInput } from '../core/mechanism.js';
import { InvalidArgumentsError } from '../core/errors.js';
import { digestBlobs } from '../http/binary.js';
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
import type { DedupStore } from '../store/types.js';
import {
  externalIdOf,
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
  /** saga: the inverse, addressed by the id the first call's response carries. */
  readonly compensation?: {
    readonly operation: string;
    readonly method: string;
    readonly path: string;
    readonly idParameter: string;
  };
  /** native-key: what marks a replay in the API's answer besides the vendors' replay headers (client/replay.ts). */
  readonly replay?: ReplaySignals;
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
  const raw = d.body?.encoding === 'text' || d.body?.encoding === 'binary';
  if (raw && d.body?.mediaType !== undefined) req.contentType = d.body.mediaType;
  if (d.responseType !== undefined) req.responseType = d.responseType;
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
  return runSaga(
    store,
    {
      operation: d.operation,
      key,
      scope: o.namespace ?? o.context.scope,
      args: input,
      ...o.context.saga,
      ...(comp !== undefined ? { compensationOperation: comp.operation } : {}),
      ...(d.ttlSeconds !== undefined ? { ttlSeconds: d.ttlSeconds } : {}),
    },
    {
      call: (ctx) =>
        http
          .send({ ...request, mechanism: 'saga', run: ctx })
          .then((res) => ({ externalId: externalIdOf(d.operation, res.body), result: res.body })),
    },
  );
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
  return idem.run(
    {
      operation: d.operation,
      key,
      scope: options.namespace ?? options.context.scope,
      args: input,
      mechanism,
      ...(d.ttlSeconds !== undefined ? { ttlSeconds: d.ttlSeconds } : {}),
    },
    (ctx) => http.send({ ...request, mechanism, run: ctx }).then((res) => res.body),
  );
}

/** What a generated client is created with: the HTTP layer's options, the dedup store and the principal namespace. */
export interface OperationClientOptions extends HttpCallerOptions {
  /** Dedup store for the writes that have no native key. */
  store?: DedupStore | undefined;
  /** Tenant/principal namespace of stored keys (and of native keys' derived wire values). */
  scope?: string | undefined;
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
