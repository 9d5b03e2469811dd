/**
 * Top-level fields of request and response bodies, as the saga's address and the verification plans read
 * them: through refs, `allOf` (any member), `oneOf`/`anyOf` (every branch). JSON media types only.
 */
import { followRef, isObject } from '../json-pointer/refs.js';
import type { HttpOperation, MediaContent } from '../ir/types.js';

export interface FieldInfo {
  schema: unknown;
  required: boolean;
}

function collect(root: unknown, schema: unknown, out: Map<string, FieldInfo>, seen: Set<unknown>): boolean {
  const value = followRef(root, schema, '').value;
  if (!isObject(value) || seen.has(value)) return false;
  seen.add(value);
  let any = false;
  const required = new Set(Array.isArray(value.required) ? value.required.filter((r) => typeof r === 'string') : []);
  if (isObject(value.properties)) {
    for (const [name, s] of Object.entries(value.properties)) {
      const known = out.get(name);
      out.set(name, { schema: known?.schema ?? s, required: (known?.required ?? false) || required.has(name) });
      any = true;
    }
  }
  if (Array.isArray(value.allOf)) for (const s of value.allOf) any = collect(root, s, out, seen) || any;
  for (const k of ['oneOf', 'anyOf'] as const) {
    const subs = value[k];
    if (!Array.isArray(subs) || subs.length === 0) continue;
    const each = subs.map((s) => {
      const m = new Map<string, FieldInfo>();
      collect(root, s, m, new Set(seen));
      return m;
    });
    for (const [name, info] of each[0]!) {
      if (each.every((m) => m.has(name))) {
        out.set(name, { schema: info.schema, required: each.every((m) => m.get(name)!.required) });
        any = true;
      }
    }
  }
  return any;
}

/** The top-level fields `schema` declares (empty when it declares none or is not an object). */
export function fieldsOf(root: unknown, schema: unknown): Map<string, FieldInfo> {
  const out = new Map<string, FieldInfo>();
  collect(root, schema, out, new Set());
  return out;
}

const isJson = (m: MediaContent) => m.mediaType.toLowerCase().includes('json');

/** The request body's top-level fields (its JSON media type, else its first, e.g. a form). */
export function requestFields(root: unknown, op: HttpOperation): Map<string, FieldInfo> {
  const content = op.requestBody?.content ?? [];
  const media = content.find(isJson) ?? content[0];
  return media === undefined ? new Map() : fieldsOf(root, media.schema);
}

/** The 2xx responses (else `default`), as emit reads them. */
export function okResponses(op: HttpOperation) {
  const ok = op.responses.filter((r) => /^2/.test(r.status));
  return ok.length > 0 ? ok : op.responses.filter((r) => r.status === 'default');
}

/**
 * Fields every success response promises at the top level: a response without a JSON body (a 204) promises
 * none, so one such response empties the set.
 */
export function responseFields(root: unknown, op: HttpOperation): Map<string, FieldInfo> {
  let common: Map<string, FieldInfo> | undefined;
  const ok = okResponses(op);
  if (ok.length === 0) return new Map();
  for (const r of ok) {
    const json = r.content.filter(isJson);
    if (json.length === 0) return new Map();
    for (const m of json) {
      const fields = fieldsOf(root, m.schema);
      common = common === undefined ? fields : new Map([...common].filter(([k]) => fields.has(k)));
    }
  }
  return common ?? new Map();
}
