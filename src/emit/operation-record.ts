/**
 * The operation record: one classified HTTP entry as the runtime's own `OperationDescription`
 * (runtime/client/operation.ts), the data `executeOperation` runs on. This is the only place that reads an
 * operation's carrier, key limits, body encoding, response type, TTL, saga inverse and mechanism from the plan:
 * the generated client prints the record as its `ops` entry (client/descriptions.ts), a tool binding is the
 * record plus the tool's face (handlers/bindings.ts, and `serve`, which builds bindings the same way at run
 * time). A new per-operation fact is added here and in the runtime that honours it.
 */
import type { ApiPlan, Carrier, PlanEntry } from '../classify/types.js';
import type { HttpOperation } from '../ir/types.js';
import type { Compensation, OperationDescription } from '@idemgen/runtime/internal/client/operation.js';
import type { KeyCarrier } from '@idemgen/runtime';
import { isNative as isNativeEntry, isWrapped } from './client/client-class.js';
import { keyLimits } from './client/key-limits.js';
import { pickRequestContent, pinnedResponseType, responseShape } from './media.js';
import { queryStyles } from './client/query-style.js';
import { replaySignals } from './replay-signals.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** How the tool boundary reads the record (handlers/bindings.ts); the client passes none. */
export interface RecordOptions {
  /**
   * A tool that takes a key promises the model a dedup window: the entry's TTL, else this (config
   * `tools.defaultTtlSeconds`). A native key's window is the API's, shown when the registry knows it.
   */
  toolWindowSeconds?: number;
}

/**
 * The declared path parameters the template names, once each in template order: what the runtime substitutes.
 * A template name is what stands between a `{` and the next `}` (at least one character), scanned left to right.
 */
function substitutedNames(op: HttpOperation): string[] {
  const path = op.path;
  const names: string[] = [];
  let declared: Set<string> | undefined;
  for (let open = path.indexOf('{'); open !== -1; ) {
    const close = path.indexOf('}', open + 1);
    if (close === -1) break;
    if (close === open + 1) {
      open = path.indexOf('{', open + 1);
      continue;
    }
    const name = path.slice(open + 1, close);
    declared ??= new Set(op.parameters.filter((p) => p.in === 'path').map((p) => p.name));
    if (declared.has(name) && !names.includes(name)) names.push(name);
    open = path.indexOf('{', close + 1);
  }
  return names;
}

/** The declared query parameter names, once each: the runtime refuses any other name before sending. */
function queryNames(op: HttpOperation): string[] {
  return [...new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name))];
}

/**
 * The runtime's `KeyCarrier`: a body/form key also gets its exact `path` (nested envelopes, names with dots)
 * unless it is a plain top-level field, and a `oneOf` body with per-variant paths all of them (`paths`).
 */
function carrierOf(c: Carrier): KeyCarrier {
  const out: Mutable<KeyCarrier> = { in: c.in as KeyCarrier['in'], name: c.name };
  if (c.in === 'header' && c.firstSent !== undefined) out.firstSent = c.firstSent;
  if (c.in !== 'body' && c.in !== 'form') return out;
  const plain = c.path.length === 1 && c.path[0] === c.name && !c.name.includes('.');
  if (!plain) out.path = [...c.path];
  const paths = c.variants?.map((v) => v.path) ?? [];
  const distinct = paths.filter((p, i) => paths.findIndex((q) => JSON.stringify(q) === JSON.stringify(p)) === i);
  if (distinct.length > 1) out.paths = distinct.map((p) => [...p]);
  return out;
}

/** The request body the runtime encodes: JSON first, then form, multipart, raw (emit/media.ts). */
function bodyOf(op: HttpOperation): OperationDescription['body'] {
  const picked = op.requestBody === undefined ? undefined : pickRequestContent(op.requestBody.content);
  if (picked === undefined) return undefined;
  const { encoding } = picked;
  const mediaType = picked.media.mediaType;
  // A JSON body names its media type only when it is not plain `application/json` (JSON Patch, merge-patch).
  const raw = encoding === 'text' || encoding === 'binary';
  const jsonVariant = encoding === 'json' && !/^application\/json\s*(;|$)/i.test(mediaType);
  return raw || jsonVariant ? { encoding, mediaType } : { encoding };
}

/** Per API: operation key → its first HTTP operation (a saga looks its inverse up; Graph has ~11,000 operations). */
const httpByKey = new WeakMap<ApiPlan['api'], Map<string, HttpOperation>>();

function httpOperation(api: ApiPlan['api'], key: string): HttpOperation | undefined {
  let byKey = httpByKey.get(api);
  if (byKey === undefined) {
    byKey = new Map();
    for (const o of api.operations) if (o.kind === 'http' && !byKey.has(o.key)) byKey.set(o.key, o);
    httpByKey.set(api, byKey);
  }
  return byKey.get(key);
}

/**
 * saga (OP-5): the inverse and where each of its path parameters comes from (classify decided it, the audit
 * shows it); nothing when the inverse cannot be addressed: a 2xx then completes the write, which cannot be undone.
 */
function compensationOf(entry: PlanEntry, apiPlan: ApiPlan): Compensation | undefined {
  if (entry.compensation === undefined || entry.compensationAddress === undefined) return undefined;
  const inverse = httpOperation(apiPlan.api, entry.compensation);
  if (inverse === undefined) return undefined;
  return {
    operation: inverse.key,
    method: inverse.method.toUpperCase(),
    path: inverse.path,
    address: Object.fromEntries(entry.compensationAddress.map((a) => [a.param, { in: a.in, name: a.name }])),
  };
}

/** What the runtime's `resolveKey` enforces when the caller passes no key (`given` is the engine's default). */
function keyStrategyOf(entry: PlanEntry): 'key' | 'given' | 'content' {
  if (entry.keyStrategy === 'caller') return 'key';
  return entry.keyStrategy === 'content' ? 'content' : 'given';
}

/** The TTL the record states: a stored row's window; a native key's (tool face only) when known. */
function ttlOf(entry: PlanEntry, native: boolean, options: RecordOptions): number | undefined {
  if (options.toolWindowSeconds !== undefined && entry.effect === 'write')
    return native ? entry.ttlSeconds : (entry.ttlSeconds ?? options.toolWindowSeconds);
  return isWrapped(entry) && !native ? entry.ttlSeconds : undefined;
}

/** One HTTP entry's record, members in a fixed order (the client prints them in it: one line per operation). */
export function operationRecord(
  apiPlan: ApiPlan,
  entry: PlanEntry,
  op: HttpOperation,
  options: RecordOptions = {},
): OperationDescription {
  const root = apiPlan.api.root;
  const wrapped = isWrapped(entry);
  const native = wrapped && isNativeEntry(entry);
  const d: Mutable<OperationDescription> = {
    operation: op.key,
    method: op.method.toUpperCase(),
    path: op.path,
    mechanism: wrapped ? entry.mechanism : 'none',
  };
  const names = substitutedNames(op);
  if (names.length > 0) d.pathParams = names;
  // Always written, `[]` too: a description without the list is an older client's, whose query is sent unchecked.
  d.queryParams = queryNames(op);
  const styles = queryStyles(op, root);
  if (styles !== undefined) d.queryStyles = styles;
  const body = bodyOf(op);
  if (body !== undefined) d.body = body;
  const pinned = pinnedResponseType(responseShape(op.responses));
  if (pinned !== undefined) d.responseType = pinned;
  if (native) {
    const carrier = entry.carrier!;
    d.carrier = carrierOf(carrier);
    const l = keyLimits(root, op, carrier);
    d.keyLimits = {
      maxLength: l.maxLength,
      minLength: l.minLength,
      ...(l.apiLimits.length > 0 ? { apiLimits: l.apiLimits } : {}),
    };
    const replay = replaySignals(entry, op, root);
    if (replay !== undefined) d.replay = replay;
  }
  if (wrapped) {
    const strategy = keyStrategyOf(entry);
    if (strategy !== 'given') d.keyStrategy = strategy;
    // A body that may hold Blobs (raw bytes, multipart file parts): their bytes are hashed (`digestBlobs`)
    // before the key and the args hash are derived (docs/concepts.md#outcomes).
    if (body?.encoding === 'binary' || body?.encoding === 'multipart') d.blobs = true;
  }
  const ttl = ttlOf(entry, native, options);
  if (ttl !== undefined) d.ttlSeconds = ttl;
  if (wrapped && entry.mechanism === 'saga') {
    const compensation = compensationOf(entry, apiPlan);
    if (compensation !== undefined) d.compensation = compensation;
  }
  if (entry.verification !== undefined) d.verification = entry.verification;
  if (entry.timeoutMs !== undefined) d.timeoutMs = entry.timeoutMs;
  return d;
}
