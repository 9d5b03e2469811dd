/**
 * The client's `ops` constant: one `OperationDescription` (runtime client/operation.ts) per method, as data.
 * Each method is a one-line typed facade passing its entry to the runtime's engine, which does everything the
 * methods used to spell out per operation (key resolution and limits, carrier, mechanism, the HTTP call).
 * Every spec string goes through the escaping helpers (spec text is untrusted): `tsString` for strings,
 * `tsObjectKey` for keys, `jsonText` for string arrays.
 */
import type { Carrier, PlanEntry } from '../../classify/types.js';
import type { HttpOperation } from '../../ir/types.js';
import type { ReplaySignals } from '../../runtime/client/replay.js';
import { jsonText, tsNumber, tsObjectKey, tsString } from '../../escape/index.js';
import type { CodeWriter } from './code-writer.js';
import type { ClientOperation } from './client-class.js';
import { isNative, isWrapped, mayCarryBlobs, OPS_CONSTANT } from './client-class.js';
import { pinnedResponseType } from './media.js';
import type { WriterFunction } from './structures.js';

/** The declared path parameters the template names, once each in template order: what the runtime substitutes. */
function substitutedNames(op: HttpOperation): string[] {
  const declared = new Set(op.parameters.filter((p) => p.in === 'path').map((p) => p.name));
  return [...new Set([...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!))].filter((n) => declared.has(n));
}

/** The declared query parameter names, once each: the runtime refuses any other name before sending. */
function queryNames(op: HttpOperation): string[] {
  return [...new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name))];
}

/**
 * The runtime's `KeyCarrier`: a body/form key also gets its exact `path` (nested envelopes, names with dots),
 * and a `oneOf` body with per-variant paths all of them (`paths`; the runtime picks by the body's shape).
 */
function carrierText(c: Carrier): string {
  const head = `in: ${tsString(c.in)}, name: ${tsString(c.name)}`;
  if (c.in === 'header' && c.firstSent !== undefined) return `{ ${head}, firstSent: ${tsString(c.firstSent)} }`;
  if (c.in !== 'body' && c.in !== 'form') return `{ ${head} }`;
  const paths = c.variants?.map((v) => v.path) ?? [];
  const distinct = paths.filter((p, i) => paths.findIndex((q) => JSON.stringify(q) === JSON.stringify(p)) === i);
  const more = distinct.length > 1 ? `, paths: ${jsonText(distinct)}` : '';
  // A plain top-level field is the runtime's default reading of `name`: no path needed.
  const plain = c.path.length === 1 && c.path[0] === c.name && !c.name.includes('.');
  return `{ ${head}${plain ? '' : `, path: ${jsonText(c.path)}`}${more} }`;
}

/** The runtime's `ReplaySignals` (client/replay.ts): a replay header, or the creation-time field and its format. */
function replayText(r: ReplaySignals | undefined): string | undefined {
  if (r === undefined) return undefined;
  if (r.header !== undefined) return `{ header: ${tsString(r.header)} }`;
  if (r.created === undefined) return undefined;
  return `{ created: { field: ${tsString(r.created.field)}, format: ${tsString(r.created.format)} } }`;
}

/** What the runtime's `resolveKey` enforces when the caller passes no key (`given` is the engine's default). */
function keyStrategyOf(entry: PlanEntry): 'key' | 'given' | 'content' {
  if (entry.keyStrategy === 'caller') return 'key';
  return entry.keyStrategy === 'content' ? 'content' : 'given';
}

/**
 * saga: the inverse and where each of its path parameters comes from (classify decided it, the audit shows it);
 * nothing when the inverse cannot be addressed: a 2xx then completes the write, which cannot be undone.
 */
function compensationText(entry: PlanEntry, inverse: HttpOperation | undefined): string | undefined {
  const address = entry.compensationAddress;
  if (inverse === undefined || address === undefined) return undefined;
  const parts = address.map((a) => `${tsObjectKey(a.param)}: { in: ${tsString(a.in)}, name: ${tsString(a.name)} }`);
  const fields = [
    `operation: ${tsString(inverse.key)}`,
    `method: ${tsString(inverse.method.toUpperCase())}`,
    `path: ${tsString(inverse.path)}`,
    `address: { ${parts.join(', ')} }`,
  ];
  return `{ ${fields.join(', ')} }`;
}

/** `name: value` members of one description, in a fixed order. */
export function descriptionFields(c: ClientOperation, inverse?: HttpOperation): string[] {
  const { entry, op, types } = c;
  const wrapped = isWrapped(entry);
  const native = wrapped && isNative(entry);
  const out = [
    `operation: ${tsString(op.key)}`,
    `method: ${tsString(op.method.toUpperCase())}`,
    `path: ${tsString(op.path)}`,
    `mechanism: ${tsString(wrapped ? entry.mechanism : 'none')}`,
  ];
  const names = substitutedNames(op);
  if (names.length > 0) out.push(`pathParams: ${jsonText(names)}`);
  // Always written, `[]` too: a description without the list is an older client's, whose query is sent unchecked.
  out.push(`queryParams: ${jsonText(queryNames(op))}`);
  if (c.queryStyles !== undefined) {
    const styles = Object.entries(c.queryStyles).map(([k, v]) => `${tsObjectKey(k)}: ${tsString(v)}`);
    out.push(`queryStyles: { ${styles.join(', ')} }`);
  }
  if (types.body !== undefined) {
    const raw = types.body.encoding === 'text' || types.body.encoding === 'binary';
    // A JSON body names its media type only when it is not plain `application/json` (JSON Patch, merge-patch).
    const jsonVariant =
      types.body.encoding === 'json' && !/^application\/json\s*(;|$)/i.test(types.body.mediaType ?? 'application/json');
    const media =
      (raw || jsonVariant) && types.body.mediaType !== undefined
        ? `, mediaType: ${tsString(types.body.mediaType)}`
        : '';
    out.push(`body: { encoding: ${tsString(types.body.encoding)}${media} }`);
  }
  const pinned = pinnedResponseType(types.response);
  if (pinned !== undefined) out.push(`responseType: ${tsString(pinned)}`);
  if (!wrapped) return out;
  if (native) {
    out.push(`carrier: ${carrierText(entry.carrier!)}`);
    const l = c.keyLimits ?? { maxLength: 255, minLength: 16, apiLimits: [] };
    const api = l.apiLimits.length > 0 ? `, apiLimits: ${jsonText(l.apiLimits)}` : '';
    out.push(`keyLimits: { maxLength: ${tsNumber(l.maxLength)}, minLength: ${tsNumber(l.minLength)}${api} }`);
    const replay = replayText(c.replay);
    if (replay !== undefined) out.push(`replay: ${replay}`);
  }
  const strategy = keyStrategyOf(entry);
  if (strategy !== 'given') out.push(`keyStrategy: ${tsString(strategy)}`);
  if (mayCarryBlobs(types)) out.push('blobs: true');
  if (!native && entry.ttlSeconds !== undefined) out.push(`ttlSeconds: ${tsNumber(entry.ttlSeconds)}`);
  if (entry.mechanism === 'saga') {
    const comp = compensationText(entry, inverse);
    if (comp !== undefined) out.push(`compensation: ${comp}`);
  }
  // Spec strings (operation keys, paths, parameter names) inside: written as escaped JSON.
  if (entry.verification !== undefined) out.push(`verification: ${jsonText(entry.verification)}`);
  return out;
}

/** One description per line, whatever its length: Graph has 11,422 of them, and a line each keeps the diff per operation. */
function writeDescription(w: CodeWriter, key: string, fields: string[]): void {
  w.writeLine(`${key}: { ${fields.join(', ')} },`);
}

/** `const ops = { listCharges: { … }, … } as const satisfies Record<string, OperationDescription>;` */
export function operationsStatement(ops: ClientOperation[], methodName: (op: HttpOperation) => string): WriterFunction {
  const byKey = new Map(ops.map((c) => [c.op.key, c.op]));
  return (w) => {
    w.writeLine('/** Each operation as data for the runtime engine; the methods below are typed facades over it. */');
    w.writeLine(`const ${OPS_CONSTANT} = {`);
    w.indent(() => {
      for (const c of ops) {
        const inverse = c.entry.compensation !== undefined ? byKey.get(c.entry.compensation) : undefined;
        writeDescription(w, tsObjectKey(methodName(c.op)), descriptionFields(c, inverse));
      }
    });
    w.write('} as const satisfies Record<string, OperationDescription>;');
  };
}
