/**
 * RFC 8785 (JSON Canonicalization Scheme) and the argument hash built on it (docs/concepts.md#outcomes).
 * Two argument objects that mean the same JSON value hash the same, whatever their key order or
 * number spelling (1, 1.0, 1e0 are one IEEE-754 value, serialized by ECMAScript rules).
 */
import * as nodeCrypto from 'node:crypto';
import { blobDigest, bytesOf, isBlob, isBytes } from './binary.js';

/** RFC 8785 §3.2.2.3: numbers use ECMAScript Number-to-String; NaN/Infinity are not JSON. */
function serializeNumber(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`canonicalJson: ${n} is not a JSON number`);
  return JSON.stringify(n); // ES serialization; -0 becomes "0" as RFC 8785 requires
}

function serialize(value: unknown, seen: Set<object>): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return serializeNumber(value);
    case 'string':
      return JSON.stringify(value); // RFC 8785 §3.2.2.2 defers to ES JSON string escaping
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined; // omitted like JSON.stringify: "no undefined" in the output
    case 'bigint':
      throw new TypeError('canonicalJson: bigint has no JSON form; convert it to a string first');
    default:
      return serializeObject(value as object, seen);
  }
}

/**
 * Bytes have no JSON form (a Blob stringifies as `{}`, a Buffer as a number array), so they enter the
 * canonical text as their SHA-256: equal bytes hash alike, different bytes never do (docs/concepts.md#outcomes).
 */
function serializeBinary(obj: object): string | undefined {
  if (isBytes(obj)) {
    const bytes = bytesOf(obj);
    return `{"$binary":{"sha256":"${sha256Hex(bytes)}","size":${bytes.byteLength}}}`;
  }
  if (!isBlob(obj)) return undefined;
  const d = blobDigest(obj);
  if (d === undefined) {
    throw new TypeError(
      'canonicalJson: a Blob cannot be read synchronously; `await digestBlobs(args)` first (generated clients do)',
    );
  }
  // The same bytes in a Blob or a typed array are the same content (for content-address); a declared type is part of the request.
  const type = d.type === '' ? '' : `,"type":${JSON.stringify(d.type)}`;
  return `{"$binary":{"sha256":"${d.sha256}","size":${d.size}${type}}}`;
}

function serializeObject(obj: object, seen: Set<object>): string {
  const binary = serializeBinary(obj);
  if (binary !== undefined) return binary;
  const withJson = obj as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return serialize(withJson.toJSON(), seen) ?? 'null';
  if (seen.has(obj)) throw new TypeError('canonicalJson: cyclic value');
  seen.add(obj);
  try {
    if (Array.isArray(obj)) {
      // By index, not `map`: `map` skips holes, and `[, 1]` would print as the non-JSON `[,1]`. A hole,
      // `undefined`, a function or a symbol is `null` in an array, exactly as JSON.stringify writes it.
      const items: string[] = [];
      for (let i = 0; i < obj.length; i++) items.push(serialize(obj[i], seen) ?? 'null');
      return `[${items.join(',')}]`;
    }
    if (obj instanceof Map || obj instanceof Set) {
      throw new TypeError('canonicalJson: Map/Set have no JSON form; convert them first');
    }
    // RFC 8785 §3.2.3: sort by UTF-16 code units — exactly what the default sort compares.
    const keys = Object.keys(obj).sort();
    const parts: string[] = [];
    for (const k of keys) {
      const v = serialize((obj as Record<string, unknown>)[k], seen);
      if (v !== undefined) parts.push(`${JSON.stringify(k)}:${v}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    seen.delete(obj);
  }
}

/** The RFC 8785 canonical JSON text of `value`. Throws on values JSON cannot represent. */
export function canonicalJson(value: unknown): string {
  const out = serialize(value, new Set());
  if (out === undefined) throw new TypeError(`canonicalJson: ${typeof value} has no JSON form`);
  return out;
}

// One-shot `crypto.hash` (Node ≥ 20.12) skips the Hash object `createHash` builds: most of a small
// digest's cost, paid on every idempotent call. Read at run time: older Node 20 lacks the export.
const oneShot = (nodeCrypto as { hash?: (alg: string, data: string | Uint8Array, enc: 'hex') => string }).hash;

export function sha256Hex(data: string | Uint8Array): string {
  if (oneShot !== undefined) return oneShot('sha256', data, 'hex');
  return nodeCrypto.createHash('sha256').update(data).digest('hex');
}

/** SHA-256 (hex) of the canonical JSON of the arguments: the `args_hash` column. */
export function hashArgs(args: unknown): string {
  return sha256Hex(canonicalJson(args));
}
