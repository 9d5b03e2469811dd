/**
 * What goes into the `result` / `error` columns: JSON text, redacted and size-capped
 * (docs/concepts.md#outcomes). An oversized result is replaced by a marker and the row still completes: the side
 * effect happened, so the key must stay burned; only a *replay* cannot return the payload.
 *
 * Bytes (a `Blob` from a binary response, an `ArrayBuffer`, a typed array) have no JSON form, so they are
 * stored as base64 inside a marker object and revived as the same kind on replay: a replayed download is
 * byte-identical to the original. Base64 is 4/3 of the bytes, and the size cap applies to the stored text.
 */
import { sha256Hex } from './canonical-json.js';
import { bytesOf, isBlob, isBytes } from './binary.js';

const MARKER = '$idemgen';

export interface StoredResult {
  text: string;
  tooLarge: boolean;
}

type BytesKind = 'blob' | 'arraybuffer' | 'uint8array';
interface BytesMarker {
  [MARKER]: 'bytes';
  kind: BytesKind;
  type?: string;
  base64: string;
}

/** `{}` (Blob, ArrayBuffer, empty view), `{"0":` (typed array) or a Buffer's toJSON: maybe bytes inside. */
const MAYBE_BYTES = /\{\}|\{"0":|"type":"Buffer"/;

function toMarker(raw: unknown, blobBytes: Map<Blob, Uint8Array>): BytesMarker | undefined {
  if (isBytes(raw)) {
    const kind: BytesKind = raw instanceof ArrayBuffer ? 'arraybuffer' : 'uint8array';
    return { [MARKER]: 'bytes', kind, base64: Buffer.from(bytesOf(raw)).toString('base64') };
  }
  if (!isBlob(raw)) return undefined;
  const bytes = blobBytes.get(raw);
  if (bytes === undefined) throw new TypeError('stored-value: Blob read missing'); // read below, before this pass
  return { [MARKER]: 'bytes', kind: 'blob', type: raw.type, base64: Buffer.from(bytes).toString('base64') };
}

async function stringify(value: unknown): Promise<string> {
  const plain = JSON.stringify(value) ?? 'null';
  if (!MAYBE_BYTES.test(plain)) return plain; // the common case pays one plain stringify
  const blobs: Blob[] = [];
  const collect = function (this: Record<string, unknown>, k: string, v: unknown): unknown {
    const raw = this[k];
    if (isBlob(raw)) {
      blobs.push(raw);
      return null;
    }
    return isBytes(raw) ? null : v;
  };
  JSON.stringify(value, collect);
  const blobBytes = new Map<Blob, Uint8Array>();
  for (const b of blobs) if (!blobBytes.has(b)) blobBytes.set(b, new Uint8Array(await b.arrayBuffer()));
  const replace = function (this: Record<string, unknown>, k: string, v: unknown): unknown {
    return toMarker(this[k], blobBytes) ?? v;
  };
  return JSON.stringify(value, replace) ?? 'null';
}

function capped(text: string, maxBytes: number): StoredResult {
  // A UTF-16 unit is at most 3 UTF-8 bytes: a short text needs no byte count.
  const bytes = text.length * 3 <= maxBytes ? 0 : Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { text, tooLarge: false };
  return { text: JSON.stringify({ [MARKER]: 'result-too-large', bytes, sha256: sha256Hex(text) }), tooLarge: true };
}

export async function encodeResult(value: unknown, maxBytes: number): Promise<StoredResult> {
  return capped(await stringify(value), maxBytes);
}

/**
 * `encodeResult` without a promise when the value holds no bytes (the common case, one plain
 * stringify); `undefined` when it may (a Blob must be read asynchronously): use `encodeResult` then.
 * Throws what JSON.stringify throws (a BigInt, a cycle).
 */
export function encodeResultNow(value: unknown, maxBytes: number): StoredResult | undefined {
  const plain = JSON.stringify(value) ?? 'null';
  return MAYBE_BYTES.test(plain) ? undefined : capped(plain, maxBytes);
}

/**
 * Stored instead of a result that has no JSON text (BigInt, a cycle) or whose `redact` threw: the
 * effect happened and the key stays burned; a replay reports that the result cannot be returned.
 */
export function unencodableMarker(err: unknown): string {
  const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return JSON.stringify({ [MARKER]: 'unencodable', reason });
}

export type DecodedResult =
  | { kind: 'value'; value: unknown }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'unencodable'; reason: string };

function revive(_k: string, v: unknown): unknown {
  if (typeof v !== 'object' || v === null || (v as Record<string, unknown>)[MARKER] !== 'bytes') return v;
  const m = v as BytesMarker;
  const buf = Buffer.from(m.base64, 'base64');
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  if (m.kind === 'blob') return new Blob([bytes], { type: m.type ?? '' });
  return m.kind === 'arraybuffer' ? bytes.slice().buffer : bytes.slice();
}

export function decodeResult(text: string | null): DecodedResult {
  if (text === null) return { kind: 'value', value: null };
  const value: unknown = text.includes(`"${MARKER}":"bytes"`) ? JSON.parse(text, revive) : JSON.parse(text);
  const marker = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  if (marker?.[MARKER] === 'result-too-large') return { kind: 'too-large', bytes: Number(marker.bytes) };
  if (marker?.[MARKER] === 'unencodable') return { kind: 'unencodable', reason: String(marker.reason) };
  return { kind: 'value', value };
}

/** Errors are stored without stacks (they leak paths) and with their HTTP status when known. */
export function encodeError(err: unknown, outcome: 'unknown' | 'failed'): string {
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as Record<string, unknown>;
  const out: Record<string, unknown> = { outcome, name: e.name ?? 'Error', message: String(e.message ?? err) };
  for (const k of ['code', 'status']) if (typeof e[k] === 'string' || typeof e[k] === 'number') out[k] = e[k];
  return JSON.stringify(out);
}
