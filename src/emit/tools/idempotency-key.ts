/**
 * The `idempotency_key` tool argument (docs/concepts.md#tool-dedup, Case 4): required on every side-effecting tool, its
 * description states who dedupes, for how long, and the retry rule so the model reuses the key on a
 * retry and mints a new one for a new intent (docs/concepts.md#store-rules: the key is born before the side effect, in the caller's state).
 */
import type { PlanEntry } from '../../classify/types.js';
// One source for the key's shortest length and characters: the runtime's strict converter puts them in its pattern.
import { KEY_CHARS, KEY_MIN_LENGTH } from '../../runtime/tools/strict/keywords.js';

export const KEY_PROPERTY = 'idempotency_key';
const KEY_MAX_LENGTH = 255;

type Obj = Record<string, unknown>;

/** `86400` → `24 hours`, `300` → `5 minutes`; whole days only from 48 h on (Stripe says "24 hours"). */
export function formatWindow(seconds: number): string {
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds >= 172_800 && seconds % 86_400 === 0) return unit(seconds / 86_400, 'day');
  if (seconds >= 3600 && seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds >= 60 && seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

/**
 * Who deduplicates, truthfully per mechanism: OP-1 passes the key to the downstream API (its own window,
 * stated only when known); every other write is deduped by the tool server itself (idemgen's middleware,
 * OP-7) for the configured window. Then how to form the key and what to do after an unknown outcome
 * (docs/concepts.md#store-rules: one key per intent, born before the call, reused on every retry).
 */
export function keyDescription(entry: PlanEntry, ttlSeconds: number): string {
  const who =
    entry.mechanism === 'native-key'
      ? entry.operation.kind === 'http'
        ? `It is sent to the API as its own idempotency key, and the API deduplicates calls with the same key${entry.ttlSeconds !== undefined ? ` for ${formatWindow(entry.ttlSeconds)}` : ''}.`
        : `The tool deduplicates calls with the same key${entry.ttlSeconds !== undefined ? ` for ${formatWindow(entry.ttlSeconds)}` : ''}.`
      : `This tool server (idemgen middleware, OP-7) deduplicates calls with the same key for ${formatWindow(ttlSeconds)}.`;
  return (
    `Idempotency key for this side effect. ${who} ` +
    'Use one new key per intended action (e.g. a UUID created once) and reuse it on every retry of that action. ' +
    'After a timeout or unknown outcome, retry with the SAME key; never use a new key for the same action.'
  );
}

/** The carrier's limit when smaller (Stripe: 255), never below the 16-character floor. */
function keyMaxLength(entry: PlanEntry): number {
  const carrierMax = entry.carrier?.maxLength;
  if (carrierMax === undefined) return KEY_MAX_LENGTH;
  return Math.max(KEY_MIN_LENGTH, Math.min(KEY_MAX_LENGTH, carrierMax));
}

function keyPropertySchema(maxLength: number, description: string): Obj {
  return {
    type: 'string',
    description,
    maxLength,
    minLength: KEY_MIN_LENGTH,
    pattern: `^${KEY_CHARS}+$`,
  };
}

/**
 * Add the key to a write tool's (normalized, object) input schema and make it required. A tool that
 * already declares its own key argument (carrier `argument`) keeps that property; it only becomes
 * required and its description gains the window. Returns the name of the key property.
 */
export function addIdempotencyKey(schema: Obj, entry: PlanEntry, ttlSeconds: number): string {
  const properties = (schema.properties ?? {}) as Obj;
  const native = entry.carrier?.in === 'argument' ? entry.carrier.name : undefined;
  const name = native !== undefined && native in properties ? native : KEY_PROPERTY;
  if (name === native) {
    const own = properties[name];
    const base = own !== null && typeof own === 'object' ? (own as Obj) : {};
    const text = typeof base.description === 'string' ? `${base.description} ` : '';
    properties[name] = { ...base, description: text + keyDescription(entry, ttlSeconds) };
  } else {
    properties[name] = keyPropertySchema(keyMaxLength(entry), keyDescription(entry, ttlSeconds));
  }
  schema.properties = properties;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  schema.required = required.includes(name) ? required : [...required, name];
  return name;
}
