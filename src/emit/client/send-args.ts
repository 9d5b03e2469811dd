/**
 * The `HttpRequest` literal each method hands to the runtime's HTTP layer (`createHttpCaller().send`):
 * the path template and its parameters (the runtime substitutes them: RFC 6570 simple expansion), everything else —
 * query flattening, Stripe-style nested form bodies, multipart, the key carrier, retries — is the runtime's.
 */
import type { CodeWriter } from './code-writer.js';
import type { HttpOperation } from '../../ir/types.js';
import type { Carrier } from '../../classify/types.js';
import { jsonText, tsMember, tsObjectKey, tsString } from '../../escape/index.js';
import type { OperationTypes } from './operation-types.js';
import { pinnedResponseType } from './media.js';

/** The declared path parameters the template names, once each in template order: what the runtime substitutes. */
function substitutedNames(op: HttpOperation): string[] {
  const declared = new Set(op.parameters.filter((p) => p.in === 'path').map((p) => p.name));
  return [...new Set([...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!))].filter((n) => declared.has(n));
}

/**
 * `path: "/orders/{order_id}", pathParams: { order_id: request.path.order_id }`: the runtime substitutes each value as one
 * percent-encoded segment inside `send`, and refuses an empty or dot-segment value (`..` would move the call to
 * another resource) as "not sent", so a dedup row claimed for the call is released.
 */
export function writePathExpression(w: CodeWriter, op: HttpOperation, params = 'request.path'): void {
  w.write(tsString(op.path));
  // Only the declared names: a `{…}` the spec's path has but declares no parameter for stays literal text,
  // whatever else the caller's object holds.
  const names = substitutedNames(op);
  if (names.length > 0) {
    w.write(`, pathParams: { ${names.map((n) => `${tsObjectKey(n)}: ${tsMember(params, n)}`).join(', ')} }`);
  }
}

/**
 * The runtime's `KeyCarrier`: a body/form key also gets its exact `path` (nested envelopes, names with dots),
 * and a `oneOf` body with per-variant paths all of them (`paths`; the runtime picks by the body's shape).
 * Every string goes through the escaping helpers (spec text is untrusted): names via tsString, paths via jsonText.
 */
function carrierLiteral(c: Carrier): string {
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

export interface SendOptions {
  /** OP-1: the runtime puts the key in the carrier and retries with it. */
  carrier?: Carrier;
  mechanism: string;
  /** `operation` (a write's local) or `operation: "GET /x"` (a read): the key an `HttpStatusError` carries. */
  operation: string;
  /** Inside a dedup run or saga call: pass its `RunContext` so a definite failure may release the row. */
  run?: boolean;
  /** Query parameters not written in the runtime's default bracket style (query-style.ts). */
  queryStyles?: Record<string, string>;
}

export function writeSendArgs(
  w: CodeWriter,
  op: HttpOperation,
  types: OperationTypes,
  o: SendOptions,
  headersFn: string,
): void {
  w.write('{').newLine();
  w.indent(() => {
    w.writeLine(`method: ${tsString(op.method.toUpperCase())},`);
    w.write('path: ');
    writePathExpression(w, op);
    w.write(',').newLine();
    if (types.groups.includes('query')) {
      w.writeLine('query: request.query,');
      if (o.queryStyles !== undefined) w.writeLine(`queryStyles: ${jsonText(o.queryStyles)},`);
    }
    const h = types.groups.includes('header');
    const c = types.groups.includes('cookie');
    // Per-call headers (`options.headers`) go after the spec's header parameters; the key carrier still wins.
    if (h || c)
      w.writeLine(
        `headers: ${headersFn}(${h ? 'request.header' : 'undefined'}, ${c ? 'request.cookie' : 'undefined'}, options?.headers),`,
      );
    else w.writeLine('headers: options?.headers,');
    if (types.body !== undefined) w.writeLine('body: request.body,');
    w.writeLine(`bodyType: ${tsString(types.body?.encoding ?? 'none')},`);
    const raw = types.body?.encoding === 'text' || types.body?.encoding === 'binary';
    if (raw && types.body?.mediaType !== undefined) w.writeLine(`contentType: ${tsString(types.body.mediaType)},`);
    const pinned = pinnedResponseType(types.response);
    if (pinned !== undefined) w.writeLine(`responseType: ${tsString(pinned)},`);
    if (o.carrier !== undefined) {
      w.writeLine('key,');
      w.writeLine(`carrier: ${carrierLiteral(o.carrier)},`);
    }
    w.writeLine(`mechanism: ${tsString(o.mechanism)},`);
    w.writeLine(`${o.operation},`);
    if (o.run === true) w.writeLine('run: ctx,');
    w.writeLine('signal: options?.signal,');
  });
  w.write('}');
}
