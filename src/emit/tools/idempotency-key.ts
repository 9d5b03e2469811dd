/**
 * The `idempotency_key` tool argument (docs/concepts.md#tool-dedup, Case 4): required on every side-effecting tool, its
 * description states the retry rule (one key per intended action, the same key on every retry) and who dedupes for
 * how long (docs/concepts.md#store-rules: the key is born before the side effect, in the caller's state).
 */
import type { PlanEntry } from '../../classify/types.js';
// One source for the key's shortest length and characters: the runtime's strict converter puts them in its pattern.
import { KEY_CHARS, KEY_MIN_LENGTH } from '../../runtime/tools/strict/keywords.js';
import { keyDescription as runtimeKeyDescription } from '../../runtime/tools/key-description.js';

export { formatWindow } from '../../runtime/tools/key-description.js';

export const KEY_PROPERTY = 'idempotency_key';
const KEY_MAX_LENGTH = 255;

type Obj = Record<string, unknown>;

/**
 * Who deduplicates, truthfully per mechanism: `native-key` passes the key to the downstream API (its own window,
 * stated only when known) or is the tool's own key argument; every other write is deduplicated by the tool server
 * itself for the configured window. The text itself (one source, ≤ 140 characters) is the runtime's.
 */
export function keyDescription(entry: PlanEntry, ttlSeconds: number): string {
  if (entry.mechanism !== 'native-key') return runtimeKeyDescription('server', ttlSeconds);
  return runtimeKeyDescription(entry.operation.kind === 'http' ? 'api' : 'tool', entry.ttlSeconds);
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
