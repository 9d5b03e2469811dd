/**
 * The `HttpRequest` literal each method hands to the runtime's HTTP layer (`createHttpCaller().send`):
 * path parameters are substituted here (RFC 6570 simple expansion, percent-encoded), everything else —
 * query flattening, Stripe-style nested form bodies, multipart, the key carrier, retries — is the runtime's.
 */
import type { CodeBlockWriter } from 'ts-morph';
import type { HttpOperation } from '../../ir/types.js';
import type { Carrier } from '../../classify/types.js';
import { propertyKey } from './names.js';
import type { OperationTypes } from './operation-types.js';
import { pinnedResponseType } from './media.js';

const member = (obj: string, name: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `${obj}.${name}` : `${obj}[${JSON.stringify(name)}]`);

/** Template-literal text must not contain a raw backtick or `${`. */
const literalPart = (text: string): string => text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

export function writePathExpression(w: CodeBlockWriter, op: HttpOperation): void {
  const declared = new Set(op.parameters.filter((p) => p.in === 'path').map((p) => p.name));
  const parts = op.path.split(/(\{[^}]+\})/);
  if (!parts.some((p) => p.startsWith('{') && declared.has(p.slice(1, -1)))) {
    w.write(JSON.stringify(op.path));
    return;
  }
  w.write('`');
  for (const part of parts) {
    const name = part.startsWith('{') ? part.slice(1, -1) : undefined;
    if (name !== undefined && declared.has(name)) w.write(`\${encodeURIComponent(String(${member('request.path', name)}))}`);
    else w.write(literalPart(part));
  }
  w.write('`');
}

export interface SendOptions {
  /** OP-1: the runtime puts the key in the carrier and retries with it. */
  carrier?: Carrier;
  mechanism: string;
  /** Inside a dedup run or saga call: pass its `RunContext` so a definite failure may release the row. */
  run?: boolean;
}

export function writeSendArgs(w: CodeBlockWriter, op: HttpOperation, types: OperationTypes, o: SendOptions, headersFn: string): void {
  w.write('{').newLine();
  w.indent(() => {
    w.writeLine(`method: ${JSON.stringify(op.method.toUpperCase())},`);
    w.write('path: ');
    writePathExpression(w, op);
    w.write(',').newLine();
    if (types.groups.includes('query')) w.writeLine('query: request.query,');
    const h = types.groups.includes('header');
    const c = types.groups.includes('cookie');
    // Per-call headers (`options.headers`) go after the spec's header parameters; the key carrier still wins.
    if (h || c) w.writeLine(`headers: ${headersFn}(${h ? 'request.header' : 'undefined'}, ${c ? 'request.cookie' : 'undefined'}, options?.headers),`);
    else w.writeLine('headers: options?.headers,');
    if (types.body !== undefined) w.writeLine('body: request.body,');
    w.writeLine(`bodyType: ${JSON.stringify(types.body?.encoding ?? 'none')},`);
    const raw = types.body?.encoding === 'text' || types.body?.encoding === 'binary';
    if (raw && types.body?.mediaType !== undefined) w.writeLine(`contentType: ${JSON.stringify(types.body.mediaType)},`);
    const pinned = pinnedResponseType(types.response);
    if (pinned !== undefined) w.writeLine(`responseType: ${JSON.stringify(pinned)},`);
    if (o.carrier !== undefined) {
      w.writeLine('key,');
      w.writeLine(`carrier: { in: ${JSON.stringify(o.carrier.in)}, name: ${JSON.stringify(o.carrier.name)} },`);
    }
    w.writeLine(`mechanism: ${JSON.stringify(o.mechanism)},`);
    if (o.run === true) w.writeLine('run: ctx,');
    w.writeLine('signal: options?.signal,');
  });
  w.write('}');
}

export { propertyKey };
