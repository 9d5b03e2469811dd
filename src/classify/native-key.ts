/**
 * Step 1: does the downstream API accept an idempotency key? (docs/concepts.md#mechanisms → OP-1.)
 * Evidence strongest first: vendor extension, declared header, body/form/query field, provider
 * registry. The config override is applied by the caller before this runs.
 */
import { isObject } from '../json-pointer/refs.js';
import type { HttpOperation, Parameter, ToolOperation } from '../ir/types.js';
import { addFinding, extension, findOverride, reason, toolSchemaPointer, type ClassifyContext } from './context.js';
import { findBodyKey, reportPartialBodyKey, type PossibleField } from './body-key.js';
import { isKeyProperty } from './heuristics.js';
import { OASIS_FIRST_SENT, weighCandidate, type Evidence } from './key-evidence.js';
import { memoSlot } from './memo.js';
import { findProvider } from './providers.js';
import { findKeyField, maxLengthOf } from './schema-fields.js';
import { completeCarrier, type Carrier, type PlanEntry, type Reason } from './types.js';

export interface NativeKey {
  carrier: Carrier;
  ttlSeconds?: number;
  reasons: Reason[];
}

const CARRIER_INS = new Set(['header', 'body', 'form', 'query', 'argument']);

function carrierFrom(value: unknown): Carrier | undefined {
  if (typeof value === 'string' && value !== '') return { in: 'header', name: value, path: [value] };
  if (!isObject(value)) return undefined;
  const inner = isObject(value.key) ? value.key : isObject(value.carrier) ? value.carrier : value;
  if (typeof inner.header === 'string') return { in: 'header', name: inner.header, path: [inner.header] };
  const where = inner.in === 'formData' ? 'form' : inner.in;
  if (typeof where !== 'string' || !CARRIER_INS.has(where) || typeof inner.name !== 'string') return undefined;
  const path =
    Array.isArray(inner.path) && inner.path.length > 0 && inner.path.every((x) => typeof x === 'string')
      ? (inner.path as string[])
      : undefined;
  const c = completeCarrier({ in: where as Carrier['in'], name: inner.name, ...(path ? { path } : {}) });
  if (typeof inner.maxLength === 'number') c.maxLength = inner.maxLength;
  if (typeof inner.required === 'boolean') c.required = inner.required;
  return c;
}

function ttlFrom(value: unknown): number | undefined {
  return isObject(value) && typeof value.ttlSeconds === 'number' ? value.ttlSeconds : undefined;
}

/** The evidence model's reading of a header or query parameter (key-evidence.ts). */
function paramEvidence(p: Parameter, ctx: ClassifyContext): Evidence | undefined {
  if (p.in !== 'header' && p.in !== 'query') return undefined;
  const schema = p.schema as Record<string, unknown> | undefined;
  const description = p.description ?? (typeof schema?.description === 'string' ? schema.description : undefined);
  return weighCandidate({ in: p.in, name: p.name, description, schema, declared: schema }, ctx.h, ctx.memo);
}

/** A parameter that carries a key: the evidence model says `key`. */
function isKeyParam(p: Parameter, ctx: ClassifyContext): boolean {
  return paramEvidence(p, ctx)?.verdict === 'key';
}

/** The first declared header parameter that carries a key. */
function declaredKeyHeader(op: HttpOperation, ctx: ClassifyContext): Parameter | undefined {
  return op.parameters.find((p) => p.in === 'header' && isKeyParam(p, ctx));
}

function headerCarrier(p: Parameter, ctx: ClassifyContext, op?: HttpOperation): Carrier {
  const c: Carrier = { in: 'header', name: p.name, path: [p.name], required: p.required };
  const max = maxLengthOf(ctx.memo, ctx.api.root, p.schema);
  if (max !== undefined) c.maxLength = max;
  // OASIS Repeatable Requests: the client sends the first attempt's time with the id, under the declared name if any.
  if (op && paramEvidence(p, ctx)?.standard === 'oasis-repeatable-requests') {
    const declared = op.parameters.find(
      (q) => q.in === 'header' && q.name.toLowerCase() === OASIS_FIRST_SENT.toLowerCase(),
    );
    c.firstSent = declared?.name ?? OASIS_FIRST_SENT;
  }
  return c;
}

/** `x-fern-idempotency-headers` (document level) lists the headers of `x-fern-idempotent` endpoints. */
function fernHeader(root: unknown): string | undefined {
  if (!isObject(root) || !Array.isArray(root['x-fern-idempotency-headers'])) return undefined;
  const first = root['x-fern-idempotency-headers'][0];
  return isObject(first) && typeof first.header === 'string' ? first.header : undefined;
}

function fromExtensions(op: HttpOperation, ctx: ClassifyContext): NativeKey | 'denied' | undefined {
  const at = op.source.pointer;
  const declared = declaredKeyHeader(op, ctx);
  const xi = extension(op, 'x-idempotency');
  if (xi === false || xi === 'none') {
    if (declared)
      addFinding(
        ctx,
        'extension_contradicts_header',
        `x-idempotency says there is no key, but ${op.key} declares the header ${declared.name}`,
        declared.pointer,
      );
    return 'denied';
  }
  const candidates: [string, Carrier | undefined, number | undefined][] = [
    ['x-idempotency', carrierFrom(xi), ttlFrom(xi)],
    ['x-idempotency-key', carrierFrom(extension(op, 'x-idempotency-key')), ttlFrom(extension(op, 'x-idempotency-key'))],
  ];
  for (const flag of ['x-idempotent', 'x-fern-idempotent']) {
    if (extension(op, flag) !== true) continue;
    const named = flag === 'x-fern-idempotent' ? fernHeader(ctx.api.root) : undefined;
    const header = named ?? 'Idempotency-Key';
    const carrier: Carrier =
      !named && declared ? headerCarrier(declared, ctx) : { in: 'header', name: header, path: [header] };
    candidates.push([flag, carrier, undefined]);
  }
  for (const [name, carrier, ttl] of candidates) {
    if (!carrier) continue;
    if (declared && carrier.in === 'header' && carrier.name.toLowerCase() !== declared.name.toLowerCase()) {
      addFinding(
        ctx,
        'extension_contradicts_header',
        `${name} names the key header ${carrier.name}, but ${op.key} declares ${declared.name}`,
        `${at}/${name}`,
      );
    }
    if (declared && carrier.in === 'header' && carrier.name.toLowerCase() === declared.name.toLowerCase()) {
      Object.assign(carrier, {
        ...headerCarrier(declared, ctx),
        ...carrier,
        name: declared.name,
        path: [declared.name],
      });
    }
    const r = reason(
      'native_extension',
      `${name} declares the key carrier ${carrier.in} ${carrier.name}`,
      `${at}/${name}`,
    );
    return { carrier, ...(ttl !== undefined ? { ttlSeconds: ttl } : {}), reasons: [r] };
  }
  return undefined;
}

function withSignals(r: Reason, e: Evidence | undefined): Reason {
  if (e && e.signals.length > 0) r.signals = e.signals;
  return r;
}

function fromParameters(op: HttpOperation, ctx: ClassifyContext): NativeKey | undefined {
  const header = declaredKeyHeader(op, ctx);
  if (header) {
    const e = paramEvidence(header, ctx);
    const byName = e?.decidedBy === 'name';
    const how =
      (header.ref ? ` (via ${header.ref})` : '') + (byName ? '' : ' (its description says the server dedupes on it)');
    const carrier = headerCarrier(header, ctx, op);
    const pair = carrier.firstSent !== undefined ? ` with ${carrier.firstSent}` : '';
    return {
      carrier,
      reasons: [
        withSignals(
          reason(
            'native_header',
            `declares the key header ${header.name}${pair}${how}${header.required ? '' : ', optional'}`,
            header.pointer,
          ),
          e,
        ),
      ],
    };
  }
  const field = op.parameters.find((p) => p.in === 'query' && isKeyParam(p, ctx));
  if (field) {
    const c: Carrier = { in: 'query', name: field.name, path: [field.name], required: field.required };
    const max = maxLengthOf(ctx.memo, ctx.api.root, field.schema);
    if (max !== undefined) c.maxLength = max;
    const e = paramEvidence(field, ctx);
    const by = e?.decidedBy === 'name' ? '' : ' (its description says the server dedupes on it)';
    return {
      carrier: c,
      reasons: [
        withSignals(reason('native_field', `declares the key ${c.in} parameter ${field.name}${by}`, field.pointer), e),
      ],
    };
  }
  return undefined;
}

function fromProvider(op: HttpOperation, ctx: ClassifyContext): NativeKey | undefined {
  const p = findProvider(ctx.memo, ctx.h.providers, op.servers, op.method, op.path);
  if (!p) return undefined;
  const ttl = p.ttlSeconds !== undefined ? `, kept ≥ ${p.ttlSeconds} s` : '';
  const r = reason(
    'native_provider',
    `the provider accepts ${p.carrier.in} ${p.carrier.name} on ${op.method.toUpperCase()} though the spec does not declare it (${p.source}${ttl})`,
    op.source.pointer,
  );
  return {
    carrier: completeCarrier(p.carrier),
    ...(p.ttlSeconds !== undefined ? { ttlSeconds: p.ttlSeconds } : {}),
    reasons: [r],
  };
}

/**
 * Every carrier the operation declares, header first (then query/form parameters, then the body field),
 * each in declaration order. More than one: the first is used, deterministically, and a finding says so.
 */
function fromDeclared(op: HttpOperation, ctx: ClassifyContext): NativeKey | undefined {
  const params = fromParameters(op, ctx);
  const possible: PossibleField[] = [];
  for (const p of op.parameters) {
    const e = paramEvidence(p, ctx);
    if (e?.verdict === 'possible')
      possible.push({ in: p.in as 'header' | 'query', path: [p.name], pointer: p.pointer, signals: e.signals });
  }
  const body = findBodyKey(op, ctx, possible);
  ctx.memo.get(POSSIBLE_CARRIERS).set(op, possible);
  const all = [...(params ? [params] : []), ...(body ? [body] : [])];
  const extraHeaders = op.parameters.filter((p) => p.in === 'header' && isKeyParam(p, ctx)).slice(1);
  const extraFields = op.parameters.filter((p) => p.in === 'query' && isKeyParam(p, ctx));
  const names = [
    ...new Set([
      ...all.map((k) => `${k.carrier.in} ${k.carrier.name}`),
      ...extraHeaders.map((p) => `header ${p.name}`),
      ...extraFields.filter((p) => params?.carrier.name !== p.name).map((p) => `query ${p.name}`),
    ]),
  ];
  const chosen = all[0];
  if (!chosen) return undefined;
  if (names.length > 1) {
    addFinding(
      ctx,
      'multiple_key_carriers',
      `${op.key} declares ${names.length} key carriers (${names.join(', ')}); the key is sent in ${names[0]} only (header first, then query/form, then body)`,
      op.source.pointer,
    );
  }
  if (chosen === body) reportPartialBodyKey(op, ctx, body);
  return { carrier: chosen.carrier, reasons: chosen.reasons };
}

/** Per operation, the borderline candidates its last key search met (read by `reportPossibleKeyCarriers`). */
const POSSIBLE_CARRIERS = memoSlot('possible key carriers', () => new WeakMap<HttpOperation, PossibleField[]>());

/**
 * Borderline evidence is never a silent guess: a write that ends without a native key but met a candidate
 * the evidence model could not decide gets an info finding with the signals and the override to paste.
 */
export function reportPossibleKeyCarriers(entry: PlanEntry, ctx: ClassifyContext): void {
  const op = entry.operation;
  if (op.kind !== 'http' || entry.effect !== 'write' || entry.mechanism === 'native-key') return;
  if (findOverride(ctx, op) !== undefined) return;
  const found: PossibleField[] = [];
  for (const p of ctx.memo.get(POSSIBLE_CARRIERS).get(op) ?? [])
    if (!found.some((q) => q.in === p.in && q.path.join('.') === p.path.join('.'))) found.push(p);
  const [first] = found;
  if (!first) return;
  const name = first.path.join('.');
  const carrier = first.path.length > 1 ? { in: first.in, name, path: first.path } : { in: first.in, name };
  const override = { overrides: { [op.key]: { mechanism: 'native-key', carrier } } };
  // A key in an array's items is one per item: one key per call would make the items collide.
  const hint = first.path.some((p) => p.endsWith('[]'))
    ? `${first.in} ${name} is one key per item; idemgen sends one key per call, so keep this operation ${entry.mechanism} or dedupe the items yourself`
    : `if the API dedupes on ${first.in} ${name}, add to idemgen.config.json: ${JSON.stringify(override)}`;
  const others =
    found.length > 1
      ? `; also ${found
          .slice(1)
          .map((p) => `${p.in} ${p.path.join('.')}`)
          .join(', ')}`
      : '';
  addFinding(
    ctx,
    'possible_key_carrier',
    `${op.key}: ${first.in} ${name} may carry an idempotency key (${first.signals.join('; ')})${others}; classified ${entry.mechanism} until confirmed`,
    first.pointer,
    { hint },
  );
}

export function findNativeKey(op: HttpOperation, ctx: ClassifyContext): NativeKey | undefined {
  const ext = fromExtensions(op, ctx);
  if (ext === 'denied') return undefined;
  return ext ?? fromDeclared(op, ctx) ?? fromProvider(op, ctx);
}

/** A tool whose input schema already has a key property is native (carrier `argument`). */
export function findToolKey(op: ToolOperation, ctx: ClassifyContext): NativeKey | undefined {
  // Tool schemas are self-contained: their `$ref`s (`#/$defs/…`, pydantic) point into the schema itself.
  const found = findKeyField(ctx.memo, op.inputSchema, op.inputSchema, toolSchemaPointer(op), (n, s, r) =>
    isKeyProperty(n, s, ctx.h, r),
  );
  const hit = found?.missing.length === 0 ? found.hits[0] : undefined;
  if (hit?.path.length !== 1) return undefined;
  const c: Carrier = { in: 'argument', name: hit.path[0], path: [hit.path[0]], required: hit.required };
  const max = maxLengthOf(ctx.memo, op.inputSchema, hit.schema);
  if (max !== undefined) c.maxLength = max;
  return {
    carrier: c,
    reasons: [reason('native_argument', `input schema already has the key argument ${hit.path[0]}`, hit.pointer)],
  };
}
