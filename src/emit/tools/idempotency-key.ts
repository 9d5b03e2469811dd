/**
 * The `idempotency_key` tool argument (SOP OP-7, Case 4): required on every side-effecting tool, its
 * description states the dedup window and the retry rule so the model reuses the key on a retry and
 * mints a new one for a new intent (SOP §6: the key is born before the side effect, in the caller's state).
 */
import type { PlanEntry } from '../../classify/types.js';

export const KEY_PROPERTY = 'idempotency_key';
export const KEY_MIN_LENGTH = 16;
export const KEY_MAX_LENGTH = 255;
/** Visible ASCII (0x21–0x7E): safe as an HTTP header value and as a SQL key, no whitespace to trim. */
export const KEY_CHARS = '[!-~]';

type Obj = Record<string, unknown>;

/** `86400` → `24 hours`, `300` → `5 minutes`; whole days only from 48 h on (Stripe says "24 hours"). */
export function formatWindow(seconds: number): string {
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds >= 172_800 && seconds % 86_400 === 0) return unit(seconds / 86_400, 'day');
  if (seconds >= 3600 && seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds >= 60 && seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

export function keyDescription(ttlSeconds: number): string {
  return (
    `Idempotency key for this side effect. The server deduplicates calls with the same key for ` +
    `${formatWindow(ttlSeconds)}: reuse the same key to retry safely; use a new key for a new intent.`
  );
}

/** The carrier's limit when smaller (Stripe: 255), never below the 16-character floor. */
export function keyMaxLength(entry: PlanEntry): number {
  const carrierMax = entry.carrier?.maxLength;
  if (carrierMax === undefined) return KEY_MAX_LENGTH;
  return Math.max(KEY_MIN_LENGTH, Math.min(KEY_MAX_LENGTH, carrierMax));
}

export function keyPropertySchema(maxLength: number, ttlSeconds: number): Obj {
  return {
    type: 'string',
    description: keyDescription(ttlSeconds),
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
    properties[name] = { ...base, description: text + keyDescription(ttlSeconds) };
  } else {
    properties[name] = keyPropertySchema(keyMaxLength(entry), ttlSeconds);
  }
  schema.properties = properties;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  schema.required = required.includes(name) ? required : [...required, name];
  return name;
}
