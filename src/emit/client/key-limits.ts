/**
 * The length limits an OP-1 key is checked against before it goes on the wire. The server enforces its
 * own limits only after the request arrived; a key it rejects there (or silently truncates) leaves the
 * retry without dedup (docs/concepts.md#carriers). `maxLength` comes from the carrier (spec or provider registry),
 * `minLength` from the carrier's schema, else 16 (runtime `validateKey` default: enough entropy).
 */
import { followRef, isObject } from '../../json-pointer/refs.js';
import type { HttpOperation, JsonSchema } from '../../ir/types.js';
import type { Carrier } from '../../classify/types.js';

export interface KeyLimits {
  maxLength: number;
  minLength: number;
  /** The limits the API declares (carrier, schema or provider registry); the rest are idemgen's defaults. */
  apiLimits: ('maxLength' | 'minLength')[];
}

const DEFAULT_MAX = 255;
const DEFAULT_MIN = 16;

/** A numeric keyword of a string schema through refs and compositions (`allOf`, 3.1 `[string, null]` via anyOf). */
function stringKeyword(root: unknown, schema: unknown, keyword: 'minLength'): number | undefined {
  const seen = new Set<unknown>();
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const value = followRef(root, stack.pop(), '').value;
    if (!isObject(value) || seen.has(value)) continue;
    seen.add(value);
    const v = value[keyword];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    for (const k of ['allOf', 'anyOf', 'oneOf']) {
      const subs = value[k];
      if (Array.isArray(subs)) stack.push(...subs);
    }
  }
  return undefined;
}

/**
 * The property schema at a path (`['data', 'attributes', 'idempotencyKey']`), merged over `allOf` and looked
 * up in `oneOf`/`anyOf` variants (the first variant that has it: classify took the smallest `maxLength`).
 */
function propertyAt(root: unknown, schema: unknown, path: string[]): unknown {
  let node: unknown = schema;
  for (const name of path) {
    const seen = new Set<unknown>();
    const stack: unknown[] = [node];
    node = undefined;
    while (stack.length > 0 && node === undefined) {
      const value = followRef(root, stack.pop(), '').value;
      if (!isObject(value) || seen.has(value)) continue;
      seen.add(value);
      if (isObject(value.properties) && Object.hasOwn(value.properties, name)) node = value.properties[name];
      else
        for (const k of ['allOf', 'anyOf', 'oneOf'])
          if (Array.isArray(value[k])) stack.push(...[...(value[k] as unknown[])].reverse());
    }
    if (node === undefined) return undefined;
  }
  return node;
}

function carrierSchema(root: unknown, op: HttpOperation, carrier: Carrier): unknown {
  const lower = carrier.name.toLowerCase();
  const param = op.parameters.find((p) =>
    carrier.in === 'header'
      ? p.in === 'header' && p.name.toLowerCase() === lower
      : p.in === carrier.in && p.name === carrier.name,
  );
  if (param !== undefined) return param.schema;
  if (carrier.in !== 'body' && carrier.in !== 'form') return undefined;
  const bodies: (JsonSchema | undefined)[] = (op.requestBody?.content ?? []).map((m) => m.schema);
  for (const b of bodies) {
    const hit = propertyAt(root, b, carrier.path);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Never below 1, and never above `maxLength` (a carrier shorter than 16 is reported by classify instead). */
export function keyLimits(root: unknown, op: HttpOperation, carrier: Carrier): KeyLimits {
  const maxLength = carrier.maxLength !== undefined && carrier.maxLength >= 1 ? carrier.maxLength : DEFAULT_MAX;
  const specMin = stringKeyword(root, carrierSchema(root, op, carrier), 'minLength');
  const minLength = Math.max(1, Math.min(specMin ?? DEFAULT_MIN, maxLength));
  const apiLimits: KeyLimits['apiLimits'] = [];
  if (carrier.maxLength !== undefined && carrier.maxLength >= 1) apiLimits.push('maxLength');
  if (specMin !== undefined || minLength < DEFAULT_MIN) apiLimits.push('minLength');
  return { maxLength, minLength, apiLimits };
}
