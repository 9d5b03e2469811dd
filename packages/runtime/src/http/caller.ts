/**
 * HTTP transport for generated clients (docs/concepts.md#carriers): the same key on every attempt, in the
 * carrier the API names. Transport retries happen only for native-key (OP-1) calls, where the
 * server dedupes the repeat, and for `method-idempotent` PUT/DELETE, where the method makes the
 * repeat harmless (core/method-idempotent.ts); every other mechanism gets exactly one attempt and
 * goes through the dedup store, which decides what an ambiguous outcome means.
 */
import {
  IdempotencyConflictError,
  IdempotencyInFlightError,
  IdempotencyNotSentError,
  InvalidArgumentsError,
} from '../core/errors.js';
import {
  bodyAsQuery,
  buildUrl,
  encodeBody,
  isStream,
  pickKeyPath,
  withBodyField,
  type BodyType,
  type QueryStyle,
} from './body.js';
import { assertNoDotSegments, checkHeaders, expandPath } from './request-check.js';
import { readResponseBody, type ResponseType } from './response.js';
import {
  backoffDelay,
  classifyConflict,
  classifyTransportError,
  DEFAULT_RETRY,
  isRetryableStatus,
  parseRetryAfter,
  type RetryPolicy,
} from './retry.js';
import { noteRequest, stampForRun, type RunTag } from '../core/run-tag.js';
import { goneAfterAmbiguous, methodAttempts, statusMayHaveExecuted } from '../core/method-idempotent.js';
import type { StoreMechanism } from '../core/store-types.js';

export type { RetryPolicy } from './retry.js';
export type { BodyType, QueryStyle, RawBody } from './body.js';
export type { ResponseType } from './response.js';

export interface KeyCarrier {
  in: 'header' | 'body' | 'form' | 'query';
  name: string;
  /** Body/form: property names from the body root (`['data', 'attributes', 'idempotencyKey']`); default `name` split on dots. */
  path?: readonly string[];
  /** A `oneOf` body with the key at a different path per variant: one path each (see `pickKeyPath`). */
  paths?: readonly (readonly string[])[];
  /**
   * Header carriers of the OASIS Repeatable Requests pair: this header (`Repeatability-First-Sent`) gets the
   * first attempt's time in IMF-fixdate, the same on every retry; a value the caller passes is kept.
   */
  firstSent?: string;
}

export interface HttpCallerOptions {
  baseUrl: string;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  /** Per attempt, including reading the body. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Injected for deterministic tests of the jitter. */
  random?: () => number;
  /** Clock for `KeyCarrier.firstSent` and each attempt's `sentAt`/`receivedAt` (ms since the epoch); injected by tests. */
  now?: () => number;
}

export interface HttpRequest {
  method: string;
  /** The path, or with `pathParams` the spec's template (`/orders/{order_id}`). */
  path: string;
  /**
   * Values for the template's `{name}`s, each sent as one percent-encoded segment. An empty value or a dot
   * segment (`.`, `..`, `%2e%2e`) would move the request to another resource: refused, not sent.
   */
  pathParams?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** The query parameters whose array/object values are not written in brackets (`id=a&id=b`): see `QueryStyle`. */
  queryStyles?: Readonly<Record<string, QueryStyle>>;
  headers?: Record<string, string>;
  /** JSON value, form object, or for `text`/`binary` a `RawBody` (Blob, ArrayBuffer, typed array, stream, string). */
  body?: unknown;
  bodyType: BodyType;
  /** Media type of a raw body (the spec's); a wildcard defers to the Blob's own type. */
  contentType?: string;
  /** What a 2xx body is read as; `auto` (default) decides by the response's content type. */
  responseType?: ResponseType;
  key?: string;
  carrier?: KeyCarrier;
  /**
   * The mechanism's name or `none`; `method-idempotent` is retried like a native key but with no key
   * (core/method-idempotent.ts). An `OP-N` spelling is read as the name where it enters the package (a
   * generated description, a binding), not here.
   */
  mechanism: StoreMechanism | 'none' | 'method-idempotent';
  /**
   * The `RunContext` of the dedup run this request belongs to (`idem.run(req, (ctx) => send({ …, run: ctx }))`).
   * With it, a definite failure of the run's only request ("not sent", a 4xx) may release the row;
   * without it every failure counts as ambiguous (fail closed). Its `attempt` marks an OP-3 takeover.
   */
  run?: { readonly tag?: RunTag; readonly attempt?: number };
  /** The caller's AbortSignal: ends the call (and its retries); see `CallOptions`. */
  signal?: AbortSignal;
  /** Per attempt, in ms: this operation's own timeout (`OperationDescription.timeoutMs`), over the caller's. */
  timeoutMs?: number;
  /** The spec's operation key (`POST /payouts`), kept on an `HttpStatusError` so it can be typed by that operation's error responses. */
  operation?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /**
   * OP-3 takeover: the PUT carried `If-None-Match: *` and got 412, so the content-addressed object
   * was stored by the earlier ambiguous attempt. `body` is `null`: the server sent no result.
   */
  alreadyStored?: true;
  /**
   * `method-idempotent` DELETE: a retry after an ambiguous attempt found the resource gone (404/410), so that
   * attempt deleted it. `status`/`headers` are the retry's; `body` is `null`: the original answer was lost.
   */
  replayed?: true;
  /** This attempt's send time and the time its answer arrived (ms since the epoch, the caller's clock): what a replay's creation time is weighed against (client/replay.ts). */
  sentAt?: number;
  receivedAt?: number;
}

/** A final non-2xx answer. 4xx (except 408/409/425/429) is a definite failure: nothing executed. */
export class HttpStatusError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly definiteFailure: boolean;
  /** `HttpRequest.operation` of the failed call, when the caller named it (generated clients do). */
  readonly operation: string | undefined;

  constructor(message: string, res: HttpResponse, definiteFailure: boolean, operation?: string) {
    super(message);
    this.name = 'HttpStatusError';
    this.status = res.status;
    this.headers = res.headers;
    this.body = res.body;
    this.definiteFailure = definiteFailure;
    this.operation = operation;
  }
}

export interface HttpCaller {
  send(req: HttpRequest): Promise<HttpResponse>;
}

interface Prepared {
  url: string;
  init: RequestInit;
  what: string;
  responseType: ResponseType;
}

/**
 * A stream can be read only once, so a call that may be retried (OP-1) buffers it first and every attempt
 * sends the same bytes; a single-attempt call streams it (`duplex: 'half'`, required by fetch for streams).
 */
async function settleStream(body: unknown, retried: boolean): Promise<{ body: unknown; duplex?: 'half' }> {
  if (!isStream(body)) return { body };
  if (!retried) return { body, duplex: 'half' };
  return { body: new Uint8Array(await new Response(body).arrayBuffer()) };
}

/** Where in the body the key goes: the variant's path the body matches, else the carrier's path. */
function carrierPath(c: KeyCarrier, body: unknown): readonly string[] {
  if (c.paths !== undefined && c.paths.length > 0) return pickKeyPath(body, c.paths);
  return c.path !== undefined && c.path.length > 0 ? c.path : c.name.split('.');
}

/** Built once per `send`, so every retry carries byte-identical key and payload. */
async function prepare(opts: HttpCallerOptions, req: HttpRequest, retried: boolean): Promise<Prepared> {
  const method = req.method.toUpperCase();
  const what = `${method} ${req.path}`;
  try {
    return await prepareChecked(opts, req, method, what, retried);
  } catch (err) {
    // Nothing left the process: an argument the request cannot carry, a body that cannot be encoded, a bad URL.
    if (err instanceof IdempotencyNotSentError) throw err;
    throw new InvalidArgumentsError(`${what}: not sent (${(err as Error)?.message ?? String(err)})`, 'request', {
      cause: err,
    });
  }
}

async function prepareChecked(
  opts: HttpCallerOptions,
  req: HttpRequest,
  method: string,
  what: string,
  retried: boolean,
): Promise<Prepared> {
  if (!TOKEN_METHOD.test(method)) throw new TypeError(`${JSON.stringify(method)} is not an HTTP method`);
  const path = req.pathParams === undefined ? req.path : expandPath(req.path, req.pathParams);
  assertNoDotSegments(path, what);
  const headers: Record<string, string> = { ...opts.headers, ...req.headers };
  let body = req.body;
  let query = req.query;
  if (req.key !== undefined && req.carrier) {
    const { name } = req.carrier;
    if (req.carrier.in === 'header') {
      // Per-call or client headers never replace the key, whatever their case.
      for (const h of Object.keys(headers)) if (h.toLowerCase() === name.toLowerCase()) delete headers[h];
      headers[name] = req.key;
      const first = req.carrier.firstSent;
      if (first !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === first.toLowerCase()))
        headers[first] = new Date((opts.now ?? Date.now)()).toUTCString(); // IMF-fixdate (RFC 9110 §5.6.7)
    } else if (req.carrier.in === 'query') query = { ...query, [name]: req.key };
    else body = withBodyField(body, carrierPath(req.carrier, body), req.key);
  }
  checkHeaders(headers);
  // GET/HEAD: the declared body's fields ride in the query (fetch refuses a body on them).
  const noBody = method === 'GET' || method === 'HEAD';
  const bodyFields = noBody ? bodyAsQuery(req.bodyType, body) : undefined;
  const encoded = noBody ? {} : encodeBody(req.bodyType, body, req.contentType);
  if (encoded.contentType && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = encoded.contentType;
  }
  const url = buildUrl(opts.baseUrl, path, query, bodyFields, req.queryStyles);
  const settled = await settleStream(encoded.body, retried);
  const init = {
    method,
    headers,
    body: settled.body as BodyInit | undefined,
    ...(settled.duplex ? { duplex: settled.duplex } : {}),
  };
  return { url, init, what, responseType: req.responseType ?? 'auto' };
}

/** RFC 9110 §9.1: a method is a token. */
const TOKEN_METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

async function attemptOnce(
  doFetch: typeof fetch,
  p: Prepared,
  timeoutMs: number,
  req: HttpRequest,
  now: () => number,
): Promise<HttpResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('request timed out', 'TimeoutError')), timeoutMs);
  const signal = req.signal ? AbortSignal.any([controller.signal, req.signal]) : controller.signal;
  try {
    const sentAt = now();
    const res = await doFetch(p.url, { ...p.init, signal });
    const receivedAt = now();
    const body = await readResponseBody(res, p.responseType);
    return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body, sentAt, receivedAt };
  } catch (err) {
    throw classifyTransportError(err, p.what, req.key);
  } finally {
    clearTimeout(timer);
  }
}

/** The request put a key on the wire (a native-key carrier), so the API can answer about that key. */
const sentKey = (req: HttpRequest): boolean => req.key !== undefined && req.carrier !== undefined;

/** The error a final, unretried response becomes. */
function finalError(req: HttpRequest, p: Prepared, res: HttpResponse): Error {
  const ctx = { key: req.key ?? '', operation: p.what, scope: '' };
  const conflict = classifyConflict(res.status, res.body, res.headers, sentKey(req));
  // 429 and 4xx were refused before execution; 5xx/408 may have executed.
  const definite = res.status === 429 || (res.status >= 400 && res.status < 500 && res.status !== 408);
  const http = new HttpStatusError(`${p.what} failed with HTTP ${res.status}`, res, definite, req.operation);
  // The API's own answer stays the cause, so a tool result can quote its status and message.
  if (conflict === 'mismatch') {
    return new IdempotencyConflictError(
      `${p.what}: the server saw this key with a different payload (${res.status})`,
      ctx,
      { cause: http },
    );
  }
  if (conflict === 'in-progress')
    return new IdempotencyInFlightError(`${p.what}: still in progress on the server`, ctx, { cause: http });
  return http;
}

/**
 * content-address, written create-if-absent (RFC 9110 §13.1.2): after an ambiguous first PUT with
 * `If-None-Match: *`, the takeover's 412 says the object exists — our own earlier write — not a failure.
 */
function storedByEarlierAttempt(req: HttpRequest, res: HttpResponse): boolean {
  if (res.status !== 412 || req.mechanism !== 'content-address' || (req.run?.attempt ?? 1) < 2) return false;
  return Object.entries(req.headers ?? {}).some(([k, v]) => k.toLowerCase() === 'if-none-match' && v.trim() === '*');
}

export function createHttpCaller(opts: HttpCallerOptions): HttpCaller {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const random = opts.random ?? Math.random;
  const timeoutMs = opts.timeoutMs ?? 30_000;

  async function send(req: HttpRequest): Promise<HttpResponse> {
    if (req.mechanism === 'native-key' && req.key !== undefined && !req.carrier) {
      // Retrying without the key on the wire would repeat the effect: the server has nothing to dedupe on.
      throw new TypeError(
        `${req.method.toUpperCase()} ${req.path}: native-key call has a key but no carrier (header/body/form/query)`,
      );
    }
    noteRequest(req.run?.tag);
    try {
      return await sendAttempts(req);
    } catch (err) {
      throw stampForRun(err, req.run?.tag); // this run's own request failed: its verdict may be trusted
    }
  }

  async function sendAttempts(req: HttpRequest): Promise<HttpResponse> {
    const retries =
      req.mechanism === 'native-key' && req.key !== undefined && req.carrier
        ? Math.max(1, policy.attempts)
        : (methodAttempts(req.mechanism, policy.attempts) ?? 1);
    const p = await prepare(opts, req, retries > 1);
    let last: unknown;
    /** An earlier attempt that may have reached the server: a later "not sent" does not undo it. */
    let reached: unknown;
    /** An earlier attempt may have executed (sent, then a timeout/reset/5xx): `method-idempotent` reads it. */
    let ambiguous = false;
    const final = (err: unknown): unknown =>
      err instanceof IdempotencyNotSentError && reached !== undefined ? reached : err;
    for (let attempt = 1; ; attempt++) {
      // Aborted before this attempt left: the first attempt sent nothing; after one, the last failure stands.
      if (req.signal?.aborted)
        throw attempt === 1
          ? new IdempotencyNotSentError(`${p.what}: aborted before sending`, { cause: req.signal.reason })
          : final(last);
      let res: HttpResponse;
      try {
        res = await attemptOnce(doFetch, p, req.timeoutMs ?? timeoutMs, req, opts.now ?? Date.now);
      } catch (err) {
        if (!(err instanceof IdempotencyNotSentError)) {
          reached = err;
          ambiguous = true;
        }
        if (attempt >= retries || req.signal?.aborted) throw final(err);
        last = err;
        await sleep(backoffDelay(attempt, policy, random));
        continue;
      }
      if (res.status < 400) return res;
      if (goneAfterAmbiguous(req.method, req.mechanism, res.status, ambiguous))
        return { status: res.status, headers: res.headers, body: null, replayed: true };
      if (storedByEarlierAttempt(req, res))
        return { status: res.status, headers: res.headers, body: null, alreadyStored: true };
      const conflict = classifyConflict(res.status, res.body, res.headers, sentKey(req));
      if (!isRetryableStatus(res.status, conflict) || attempt >= retries) throw finalError(req, p, res);
      const retryAfter = parseRetryAfter(res.headers['retry-after']);
      if (retryAfter !== undefined && retryAfter > (policy.maxRetryAfterMs ?? Infinity)) throw finalError(req, p, res);
      last = finalError(req, p, res);
      reached = last;
      if (statusMayHaveExecuted(res.status)) ambiguous = true;
      await sleep(Math.max(backoffDelay(attempt, policy, random), retryAfter ?? 0));
    }
  }

  return { send };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
