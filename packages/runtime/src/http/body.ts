/**
 * Request encoding for the HTTP caller, including the idempotency-key carriers (docs/concepts.md#carriers:
 * the key rides in the header, body field, form field or query parameter the API names).
 */

import { bytesOf, isBlob, isBytes } from '../core/binary.js';

/** `text` and `binary` send the body as it is (raw), with the request's `contentType`. */
export type BodyType = 'json' | 'form' | 'multipart' | 'text' | 'binary' | 'none';
export type RawBody = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | string;

export const isStream = (v: unknown): v is ReadableStream<Uint8Array> =>
  typeof ReadableStream !== 'undefined' && v instanceof ReadableStream;

/**
 * Stripe-style nested form keys: `{ a: { b: ['c'] } }` → `a[b][0]=c`; undefined omitted, null → ''. With
 * `blankEmpty` (request bodies) an empty array is sent as the empty string (`tax_rates=`), Stripe's
 * documented way to say "set to an empty list": brackets cannot spell one, and leaving the field out would
 * say "not given". An empty object is left out: in Stripe's merge model it sets nothing, whereas `metadata=`
 * would clear every key. In a query an empty array is left out too (undefined in RFC 6570 expansion).
 */
function flattenForm(
  value: unknown,
  prefix = '',
  out: [string, string | Blob][] = [],
  blankEmpty = false,
): [string, string | Blob][] {
  if (value === undefined) return out;
  if (value === null) {
    if (prefix) out.push([prefix, '']);
    return out;
  }
  if (value instanceof Date) {
    out.push([prefix, String(Math.floor(value.getTime() / 1000))]);
    return out;
  }
  if (typeof Blob !== 'undefined' && value instanceof Blob) {
    out.push([prefix, value]);
    return out;
  }
  if (Array.isArray(value)) {
    if (value.length === 0 && blankEmpty && prefix) out.push([prefix, '']);
    value.forEach((item, i) => {
      flattenForm(item, `${prefix}[${i}]`, out, blankEmpty);
    });
    return out;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      flattenForm(v, prefix ? `${prefix}[${k}]` : k, out, blankEmpty);
    return out;
  }
  if (!prefix) throw new TypeError('form body must be an object');
  out.push([prefix, String(value)]);
  return out;
}

/** application/x-www-form-urlencoded text (RFC 1866 §8.2.1 via WHATWG URLSearchParams). */
export function encodeForm(value: unknown): string {
  const params = new URLSearchParams();
  for (const [k, v] of flattenForm(value, '', [], true)) {
    if (typeof v !== 'string') throw new TypeError(`form field ${k} is a Blob: use bodyType 'multipart'`);
    params.append(k, v);
  }
  return params.toString();
}

function encodeMultipart(value: unknown): FormData {
  const form = new FormData();
  for (const [k, v] of flattenForm(value, '', [], true)) form.append(k, v);
  return form;
}

/**
 * Set the key at `path` in a JSON/form body without mutating the caller's object; envelope objects on the
 * way (`data`, `attributes`, `request`) are created when missing. A string path is dotted (`a.b.c`).
 */
export function withBodyField(body: unknown, path: string | readonly string[], key: string): Record<string, unknown> {
  const parts = typeof path === 'string' ? path.split('.') : [...path];
  if (typeof body === 'string' || isBlob(body) || isBytes(body) || isStream(body)) {
    throw new TypeError(
      `the idempotency key cannot ride in field ${parts.join('.')} of a raw body; use a header or query carrier`,
    );
  }
  if (parts.length === 0) throw new TypeError('the idempotency key needs a body field path');
  const root: Record<string, unknown> = { ...((body ?? {}) as Record<string, unknown>) };
  let node = root;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node = node[part] = {
      ...(typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : {}),
    };
  }
  node[parts[parts.length - 1]] = key;
  return root;
}

/** How many leading segments of `path` (before the key itself) already exist as objects in `body`. */
function depthPresent(body: unknown, path: readonly string[]): number {
  let node = body;
  let n = 0;
  for (const part of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) break;
    node = (node as Record<string, unknown>)[part];
    n++;
  }
  return n;
}

/**
 * A `oneOf` body whose variants carry the key at different paths: the path most of whose envelope the
 * caller's body already has (deepest match), first declared on a tie. The caller's body says which variant it is.
 */
export function pickKeyPath(body: unknown, paths: readonly (readonly string[])[]): readonly string[] {
  let best = paths[0];
  let bestDepth = -1;
  for (const p of paths) {
    const d = depthPresent(body, p);
    if (d > bestDepth) {
      best = p;
      bestDepth = d;
    }
  }
  return best;
}

/**
 * How a query parameter's array or object value is written, in Swagger 2.0's `collectionFormat` names:
 * `multi` is OpenAPI 3's default (`style: form, explode: true`: `id=a&id=b`, an object `k=v&k2=v2`); `csv`
 * is `form` with `explode: false` (`id=a,b`, an object `id=k,v,k2,v2`); `ssv`, `pipes` and `tsv` are
 * `spaceDelimited`, `pipeDelimited` and 2.0's tab-separated form. A parameter without a style (and
 * `deepObject`) is flattened in brackets (`id[0]=a`, `f[k]=v`), Stripe's convention. Scalars are written
 * the same in every style; a nested value inside a delimited list is sent as JSON (no style defines it).
 */
export type QueryStyle = 'multi' | 'csv' | 'ssv' | 'pipes' | 'tsv';

/** The literal separator of each delimited style: its items are encoded, the separator is not (RFC 6570 §3.2.8). */
const DELIMITER: Record<Exclude<QueryStyle, 'multi'>, string> = { csv: ',', ssv: '%20', pipes: '|', tsv: '%09' };

/** One `name=value` pair, encoded as `URLSearchParams` encodes it (application/x-www-form-urlencoded). */
const pair = (name: string, value: string): string => new URLSearchParams([[name, value]]).toString();
const formText = (value: string): string => new URLSearchParams([['', value]]).toString().slice(1);

function scalarText(v: unknown): string {
  if (v === null) return '';
  if (v instanceof Date) return String(Math.floor(v.getTime() / 1000));
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** One query parameter in its declared style, as encoded `name=value` pieces. */
function styledQuery(name: string, value: unknown, style: QueryStyle | undefined): string[] {
  const plain = typeof value !== 'object' || value === null || value instanceof Date;
  if (style === undefined || plain) {
    return flattenForm({ [name]: value }).flatMap(([k, v]) => (typeof v === 'string' ? [pair(k, v)] : []));
  }
  const object = !Array.isArray(value);
  const entries = object
    ? Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    : (value as unknown[]).map((v) => ['', v] as const);
  if (style === 'multi') return entries.map(([k, v]) => pair(object ? k : name, scalarText(v)));
  const items = object ? entries.flatMap(([k, v]) => [k, scalarText(v)]) : entries.map(([, v]) => scalarText(v));
  // An empty list is undefined in RFC 6570 expansion: the parameter is left out.
  return items.length === 0 ? [] : [`${formText(name)}=${items.map(formText).join(DELIMITER[style])}`];
}

/**
 * `queryStyles`: the style of each query parameter that has one (see `QueryStyle`). `bodyFields`: a
 * GET/HEAD body's fields (`bodyAsQuery`), appended after the query parameters in the bracket style. A query
 * parameter given as null is left out, like one not given: form-style expansion (RFC 6570 §3.2.8) has no
 * null, and `state=` would be a value (an empty one, which an enum refuses). Nested nulls keep the form
 * encoder's `''`. A query already in `path` (`/assistants?beta=true`) is kept, first.
 */
export function buildUrl(
  baseUrl: string,
  path: string,
  query: Record<string, unknown> | undefined,
  bodyFields?: Record<string, unknown>,
  queryStyles?: Readonly<Record<string, QueryStyle>>,
): string {
  const url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const parts = url.search === '' ? [] : [url.search.slice(1)];
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== null)
      parts.push(...styledQuery(k, v, queryStyles && Object.hasOwn(queryStyles, k) ? queryStyles[k] : undefined));
  }
  for (const [k, v] of flattenForm(bodyFields ?? {})) if (typeof v === 'string') parts.push(pair(k, v));
  url.search = parts.join('&');
  return url.toString();
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isBlob(v) && !isBytes(v) && !isStream(v);

/**
 * A GET or HEAD request cannot carry a body (fetch refuses one; RFC 9110 §9.3.1 gives it no meaning), yet
 * specs declare them (Stripe: a form body on every GET). Its fields go to the query string instead, in the
 * bracket style of the form encoder whatever the declared encoding (`expand[0]=a`, `card[number]=4242`),
 * as Stripe's own SDKs send them. Only an object body has fields: an array, a scalar or a raw payload on a
 * GET is refused; an empty one is dropped.
 */
export function bodyAsQuery(bodyType: BodyType, body: unknown): Record<string, unknown> | undefined {
  if (body === undefined || body === null || bodyType === 'none') return undefined;
  if (isPlainObject(body)) {
    const blob = flattenForm(body).find(([, v]) => typeof v !== 'string');
    if (blob !== undefined) throw new TypeError(`body field ${blob[0]} is a file, which a GET/HEAD query cannot carry`);
    return body;
  }
  if (body === '' || (isBytes(body) && bytesOf(body).byteLength === 0)) return undefined;
  throw new TypeError('a GET/HEAD request has no body, and this body has no fields to send in the query');
}

export interface EncodedBody {
  body?: string | FormData | Blob | Uint8Array | ReadableStream<Uint8Array>;
  contentType?: string;
}

/**
 * A raw body and its media type: the spec's media type when concrete; for a wildcard (`*\/*`, `image/*`) or
 * none, the Blob's own type, else `application/octet-stream` (RFC 9110 §8.3) or UTF-8 text for `text`.
 */
function encodeRaw(bodyType: 'text' | 'binary', body: unknown, mediaType: string | undefined): EncodedBody {
  const concrete = mediaType !== undefined && !mediaType.includes('*') ? mediaType : undefined;
  const fallback = bodyType === 'text' ? 'text/plain; charset=utf-8' : 'application/octet-stream';
  if (typeof body === 'string') return { body, contentType: concrete ?? fallback };
  if (isBlob(body)) return { body, contentType: concrete ?? (body.type || fallback) };
  if (isBytes(body)) return { body: bytesOf(body), contentType: concrete ?? fallback };
  if (isStream(body)) return { body, contentType: concrete ?? fallback };
  throw new TypeError(
    `a ${bodyType} body must be a Blob, ArrayBuffer, typed array, ReadableStream or string (got ${body === null ? 'null' : typeof body})`,
  );
}

/**
 * The JSON media type the operation declares (`application/json-patch+json`, `application/merge-patch+json`,
 * a vendor `+json`), else `application/json`: a server that routes by media type reads a patch only as a patch.
 */
function jsonMediaType(mediaType: string | undefined): string {
  if (mediaType === undefined || mediaType.includes('*')) return 'application/json';
  return /^[\w.+-]+\/[\w.+-]*json\b/i.test(mediaType.trim()) ? mediaType.trim() : 'application/json';
}

export function encodeBody(bodyType: BodyType, body: unknown, mediaType?: string): EncodedBody {
  switch (bodyType) {
    case 'none':
      return {};
    case 'json':
      // an optional body left out is no body, not the JSON text `null` (the spec's schema rarely allows null)
      return body === undefined ? {} : { body: JSON.stringify(body), contentType: jsonMediaType(mediaType) };
    case 'form':
      return { body: encodeForm(body ?? {}), contentType: 'application/x-www-form-urlencoded' };
    case 'multipart':
      // an optional body left out is no body, not an empty multipart document (which still has a boundary)
      return body === undefined ? {} : { body: encodeMultipart(body ?? {}) }; // fetch sets the boundary
    case 'text':
    case 'binary':
      return encodeRaw(bodyType, body ?? '', mediaType);
    default: {
      const never: never = bodyType;
      throw new TypeError(`unknown bodyType ${String(never)}`);
    }
  }
}
