/**
 * What a dedup row keeps of the arguments, for the operator who must later decide an unknown outcome
 * (`idemgen reconcile`). The hash alone cannot be read; the arguments themselves may hold secrets or
 * personal data. Default: the shape and sizes, never a value — `{"to":"string(17)","amount":"number"}`.
 * A `summarize` hook may keep more (an amount, a recipient's domain); its output is capped like a result.
 */
export type Summarize = (args: unknown, info: { operation: string }) => unknown;

const MAX_DEPTH = 4;
const MAX_KEYS = 40;
const MAX_BYTES = 2048;

/** Shape and sizes only: strings by length, arrays by count (and the first item's shape), no values. */
export function shapeOf(value: unknown, depth = 0): unknown {
  if (value === null) return 'null';
  if (typeof value === 'string') return `string(${value.length})`;
  if (typeof value !== 'object') return typeof value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `array(${value.length})` : 'object';
  if (Array.isArray(value)) {
    return value.length === 0 ? 'array(0)' : { [`array(${value.length})`]: shapeOf(value[0], depth + 1) };
  }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `bytes(${(value as ArrayBuffer).byteLength})`;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return `bytes(${value.size})`;
  const entries = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries.slice(0, MAX_KEYS)) out[k] = shapeOf(v, depth + 1);
  if (entries.length > MAX_KEYS) out['…'] = `${entries.length - MAX_KEYS} more keys`;
  return out;
}

/**
 * `JSON.stringify(shapeOf(value))`, written directly: the default summary runs on every call, and
 * building the shape object only to serialize it cost as much again (a test pins the two equal).
 */
export function shapeText(value: unknown, depth = 0): string {
  if (value === null) return '"null"';
  if (typeof value === 'string') return `"string(${value.length})"`;
  if (typeof value !== 'object') return `"${typeof value}"`;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `"array(${value.length})"` : '"object"';
  if (Array.isArray(value)) {
    return value.length === 0 ? '"array(0)"' : `{"array(${value.length})":${shapeText(value[0], depth + 1)}}`;
  }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `"bytes(${(value as ArrayBuffer).byteLength})"`;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return `"bytes(${value.size})"`;
  const keys = Object.keys(value);
  const obj = value as Record<string, unknown>;
  let out = '';
  const n = Math.min(keys.length, MAX_KEYS);
  for (let i = 0; i < n; i++) {
    const k = keys[i] as string;
    // shapeOf assigns `out[k]`: a `__proto__` key sets the prototype there and never reaches the text.
    if (k === '__proto__') continue;
    out += `${out === '' ? '' : ','}${JSON.stringify(k)}:${shapeText(obj[k], depth + 1)}`;
  }
  if (keys.length > MAX_KEYS) out += `${out === '' ? '' : ','}"…":"${keys.length - MAX_KEYS} more keys"`;
  return `{${out}}`;
}

/** JSON text for the `args_summary` column; a hook that throws or returns nothing stores a marker, never fails the call. */
export function summarizeArgs(args: unknown, operation: string, hook: Summarize | false | undefined): string | null {
  if (hook === false) return null;
  let text: string;
  try {
    text = hook ? (JSON.stringify(hook(args, { operation })) ?? 'null') : shapeText(args);
  } catch (err) {
    return JSON.stringify({ $idemgen: 'summary-failed', reason: err instanceof Error ? err.name : 'error' });
  }
  // A UTF-16 unit is at most 3 UTF-8 bytes: a short text needs no byte count (the common case).
  if (text.length * 3 <= MAX_BYTES) return text;
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes <= MAX_BYTES ? text : JSON.stringify({ $idemgen: 'summary-too-large', bytes });
}
