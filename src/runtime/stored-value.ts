/**
 * What goes into the `result` / `error` columns: JSON text, redacted and size-capped
 * (DESIGN §5). An oversized result is replaced by a marker and the row still completes: the side
 * effect happened, so the key must stay burned; only a *replay* cannot return the payload.
 */
import { sha256Hex } from './canonical-json.js';

const MARKER = '$idemgen';

export interface StoredResult {
  text: string;
  tooLarge: boolean;
}

export function encodeResult(value: unknown, maxBytes: number): StoredResult {
  const text = JSON.stringify(value) ?? 'null';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { text, tooLarge: false };
  return { text: JSON.stringify({ [MARKER]: 'result-too-large', bytes, sha256: sha256Hex(text) }), tooLarge: true };
}

export type DecodedResult = { kind: 'value'; value: unknown } | { kind: 'too-large'; bytes: number };

export function decodeResult(text: string | null): DecodedResult {
  if (text === null) return { kind: 'value', value: null };
  const value: unknown = JSON.parse(text);
  if (typeof value === 'object' && value !== null && (value as Record<string, unknown>)[MARKER] === 'result-too-large') {
    return { kind: 'too-large', bytes: Number((value as Record<string, unknown>).bytes) };
  }
  return { kind: 'value', value };
}

/** Errors are stored without stacks (they leak paths) and with their HTTP status when known. */
export function encodeError(err: unknown, outcome: 'unknown' | 'failed'): string {
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as Record<string, unknown>;
  const out: Record<string, unknown> = { outcome, name: e.name ?? 'Error', message: String(e.message ?? err) };
  for (const k of ['code', 'status']) if (typeof e[k] === 'string' || typeof e[k] === 'number') out[k] = e[k];
  return JSON.stringify(out);
}
