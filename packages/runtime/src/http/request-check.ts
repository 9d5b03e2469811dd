/**
 * What a request may carry so that the server receives exactly what the caller asked for. Checked before
 * anything is sent (and, in the tool runtime, before the key is claimed): a refusal is an
 * `InvalidArgumentsError`, a "not sent" failure that frees the key for the corrected call.
 */
import { InvalidArgumentsError } from '../core/errors.js';

/** `%25` (an encoded `%`) and `%2e` (an encoded `.`) undone until nothing changes: `%252e` → `%2e` → `.`. */
function undoDotEncoding(segment: string): string {
  let prev: string;
  let s = segment;
  do {
    prev = s;
    s = s.replace(/%25/gi, '%').replace(/%2e/gi, '.');
  } while (s !== prev);
  return s;
}

/** `.` or `..` once percent-encoded dots are read as dots: WHATWG URL parsing resolves `%2e%2e` like `..`. */
function isDotSegment(segment: string): boolean {
  const s = undoDotEncoding(segment);
  return s === '.' || s === '..';
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const show = (v: string): string => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);

/** The items of a `simple`-style value (RFC 6570 §3.2.2): an array's items, an object's keys and values in turn. */
function simpleItems(value: unknown): string[] {
  const text = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  if (Array.isArray(value)) return value.map(text);
  if (typeof value === 'object' && value !== null && !(value instanceof Date))
    return Object.entries(value).flatMap(([k, v]) => [k, text(v)]);
  return [String(value)];
}

/**
 * One path parameter as one percent-encoded path segment (RFC 6570 simple expansion: an array's items, an
 * object's keys and values, each encoded and joined by a literal `,`). An empty value or a dot segment would
 * address another resource (`/customers/` + `..` is `/`; `''` is the collection), so it is refused before
 * any request.
 */
function pathParam(value: unknown, name: string): string {
  const items = simpleItems(value);
  const text = items.join(',');
  if (text === '') throw new InvalidArgumentsError(`path parameter ${name} is empty`, `path.${name}`);
  if (isDotSegment(text)) {
    throw new InvalidArgumentsError(
      `path parameter ${name} is ${show(text)}, a dot segment that would move the request to another path`,
      `path.${name}`,
    );
  }
  if (LONE_SURROGATE.test(text)) {
    // encodeURIComponent would throw a URIError: a lone surrogate has no UTF-8 form.
    throw new InvalidArgumentsError(
      `path parameter ${name} is not well-formed Unicode (a lone surrogate)`,
      `path.${name}`,
    );
  }
  return items.map(encodeURIComponent).join(',');
}

/** Substitute `{name}` in a path template with `pathParam` (only names present in `values`). */
export function expandPath(template: string, values: Record<string, unknown> | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const v = values?.[name];
    return v === undefined ? whole : pathParam(v, name);
  });
}

/**
 * Defence in depth for a path however it was built: no segment may be a dot segment, raw or
 * percent-encoded, since URL parsing would resolve it and send the request elsewhere.
 */
export function assertNoDotSegments(path: string, what: string): void {
  const bare = path.split(/[?#]/, 1)[0];
  const dot = bare.split('/').find(isDotSegment);
  if (dot !== undefined) {
    throw new InvalidArgumentsError(
      `${what}: the path contains the dot segment ${show(dot)}; URL parsing would send the request to another path`,
      'url',
    );
  }
}

/** RFC 9110 §5.6.2 token: the only characters a field name may have. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 §5.5 field-value: visible ASCII, obs-text, and SP/HTAB only between other characters. */
const FIELD_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/**
 * Every header name a token and every value one the server will read back exactly: no CR/LF (header
 * injection), no other control characters, nothing above U+00FF, and no leading or trailing whitespace
 * (fetch trims it and HTTP parsers drop it, so the server would see a different value).
 */
export function checkHeaders(headers: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!TOKEN.test(name)) {
      throw new InvalidArgumentsError(`header name ${show(name)} is not an HTTP token`, `header.${name}`);
    }
    if (typeof value !== 'string' || !FIELD_VALUE.test(value)) {
      const why =
        typeof value !== 'string'
          ? 'is not a string'
          : /[\r\n]/.test(value)
            ? 'contains CR or LF'
            : /^[\t ]|[\t ]$/.test(value)
              ? 'starts or ends with whitespace, which HTTP drops'
              : 'contains a character a header cannot carry (a control character or one above U+00FF)';
      throw new InvalidArgumentsError(`header ${name}: the value ${why}; it was not sent`, `header.${name}`);
    }
  }
}
