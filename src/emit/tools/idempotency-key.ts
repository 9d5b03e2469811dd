/**
 * The `idempotency_key` tool argument (docs/concepts.md#tool-dedup, Case 4): required on every side-effecting tool, its
 * description states the retry rule (one key per intended action, the same key on every retry) and who dedupes for
 * how long (docs/concepts.md#store-rules: the key is born before the side effect, in the caller's state).
 */
import type { PlanEntry } from '../../classify/types.js';
// The key argument's one module (name, limits, schema, description): the runtime's, which the listings share.
import {
  KEY_ARGUMENT,
  keyArgumentSchema,
  keyMaxLength,
  keyDescription as runtimeKeyDescription,
} from '@idemgen/runtime/internal/tools/key-argument.js';

export { formatWindow } from '@idemgen/runtime/internal/tools/key-argument.js';

export const KEY_PROPERTY = KEY_ARGUMENT;

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
    properties[name] = keyArgumentSchema(keyDescription(entry, ttlSeconds), keyMaxLength(entry.carrier?.maxLength));
  }
  schema.properties = properties;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  schema.required = required.includes(name) ? required : [...required, name];
  return name;
}
