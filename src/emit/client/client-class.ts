/**
 * The client class: one method per HTTP operation. Reads are plain typed calls; writes are shaped by their
 * PlanEntry (README.md): OP-1 hands the key to the runtime's HTTP layer, which puts it in the API's own
 * carrier and keeps it on every retry (docs/concepts.md#carriers); OP-5 runs as a saga with its inverse wired in; every
 * other mechanism runs through the dedup store (docs/concepts.md#store-rules).
 */
import type { CodeWriter } from './code-writer.js';
import type { QueryStyle } from '../../runtime/http/body.js';
import type { ClassDecl, MethodDecl, ParameterDecl, PropertyDecl, WriterFunction } from './structures.js';
import type { HttpOperation } from '../../ir/types.js';
import type { PlanEntry } from '../../classify/types.js';
import { isSafeIdentifier, jsonText, tsIdentifier, tsNumber, tsObjectKey, tsString } from '../../escape/index.js';
import { methodDoc } from './jsdoc.js';
import type { OperationTypes } from './operation-types.js';
import type { HelperNames } from './helpers.js';
import { writePathExpression, writeSendArgs } from './send-args.js';
import { propertyKey } from './names.js';
import { typeAliasStatement, writeObjectType, type TypeMember } from './object-type.js';
import type { KeyLimits } from './key-limits.js';

export interface ClientOperation {
  entry: PlanEntry;
  op: HttpOperation;
  types: OperationTypes;
  /** OP-1 with a carrier: the limits the key is validated against before any request. */
  keyLimits?: KeyLimits;
  /** The operation's row in the audit report (`../report/audit.md#post-payouts`), when the report is written. */
  auditLink?: string;
  /** Query parameters not written in the runtime's bracket style (query-style.ts). */
  queryStyles?: Record<string, QueryStyle>;
}

/** The IR hands out safe, unique names; re-checked here because a method name is code. */
function methodName(op: HttpOperation): string {
  return isSafeIdentifier(op.name) ? op.name : tsIdentifier(op.name, 'operation');
}

/** Writes that get a wrapper; `none` on a write means classify refused it and the report says why. */
export function isWrapped(entry: PlanEntry): boolean {
  return entry.effect === 'write' && entry.mechanism !== 'none';
}

/** OP-1 with an HTTP carrier trusts the API's own dedup (docs/concepts.md#store-rules, second pattern). */
export function isNative(entry: PlanEntry): boolean {
  return entry.mechanism === 'native-key' && entry.carrier !== null && entry.carrier.in !== 'argument';
}

export function usesDedupStore(entry: PlanEntry): boolean {
  return isWrapped(entry) && !isNative(entry) && entry.mechanism !== 'saga';
}

/**
 * A body that may hold Blobs (raw bytes, multipart file parts). A Blob has no JSON form, so its bytes are
 * read and hashed (`digestBlobs`) before the key and the args hash are derived (docs/concepts.md#outcomes).
 */
export function mayCarryBlobs(types: OperationTypes): boolean {
  return types.body !== undefined && (types.body.encoding === 'binary' || types.body.encoding === 'multipart');
}

interface KeyOption {
  /** `options` parameter type; generic (`O`) where a scope is accepted, so `{ scope: {} }` does not compile. */
  type: string;
  optional: boolean;
  /** Type parameter of the method, when generic. */
  typeParameter?: string;
  /** What the generated `resolveKey` enforces at run time. */
  strategy: 'key' | 'given' | 'content';
}

function keyOption(entry: PlanEntry, h: HelperNames): KeyOption {
  const checked = `O & ${h.nonEmptyScope}<O>`;
  switch (entry.keyStrategy) {
    case 'caller':
      return { type: h.callerKey, optional: false, strategy: 'key' };
    case 'intent':
      return { type: checked, typeParameter: `O extends ${h.keyOptions}`, optional: false, strategy: 'given' };
    case 'content':
      return {
        type: checked,
        typeParameter: `O extends ${h.keyOptions} | ${h.callOptions} = ${h.callOptions}`,
        optional: true,
        strategy: 'content',
      };
    case null:
      return { type: checked, typeParameter: `O extends ${h.keyOptions}`, optional: false, strategy: 'given' };
  }
}

/**
 * A defaulted `request = {}` only where nothing after it is required: `(request = {}, options: CallerKey)`
 * would make `undefined` the only way to skip the request.
 */
function requestParam(c: ClientOperation, optionsRequired = false): ParameterDecl {
  const optional = !c.types.requestRequired && !optionsRequired;
  return { name: 'request', type: c.types.requestName, ...(optional ? { initializer: '{}' } : {}) };
}

/** `(await this.#http.send({...})).body as T` — the single place a response becomes a typed value. */
function writeCall(
  w: CodeWriter,
  c: ClientOperation,
  h: HelperNames,
  mechanism: string,
  native: boolean,
  run = false,
): void {
  // OP-1 keeps the whole response: `nativeResult` reads the replay headers.
  w.write('this.#http.send(');
  // A write has `const operation`; a read names its key inline (it lands on an `HttpStatusError`, see `errorOf`).
  const operation = isWrapped(c.entry) ? 'operation' : `operation: ${tsString(c.op.key)}`;
  writeSendArgs(
    w,
    c.op,
    c.types,
    {
      mechanism,
      operation,
      run,
      ...(native ? { carrier: c.entry.carrier! } : {}),
      ...(c.queryStyles ? { queryStyles: c.queryStyles } : {}),
    },
    h.headers,
  );
  w.write(native ? ')' : `).then((res) => res.body as ${c.types.responseName})`);
}

function readMethod(c: ClientOperation, h: HelperNames): MethodDecl {
  return {
    name: methodName(c.op),
    docs: methodDoc(c.entry, c.auditLink),
    parameters: [requestParam(c), { name: 'options', type: h.callOptions, optional: true }],
    returnType: `Promise<${c.types.responseName}>`,
    statements: (w) => {
      w.write('return ');
      writeCall(w, c, h, 'none', false);
      w.write(';');
    },
  };
}

function writeStoreRun(w: CodeWriter, c: ClientOperation, h: HelperNames): void {
  const ttl = c.entry.ttlSeconds !== undefined ? `, ttlSeconds: ${tsNumber(c.entry.ttlSeconds)}` : '';
  w.writeLine(
    `return needStore(this.#idem, operation).run({ operation, key, scope: this.#scope, args: request, mechanism: ${tsString(c.entry.mechanism)}${ttl} }, (ctx) =>`,
  );
  w.indent(() => writeCall(w, c, h, c.entry.mechanism, false, true));
  w.write(');');
}

function writeSaga(w: CodeWriter, c: ClientOperation, h: HelperNames, inverse: HttpOperation | undefined): void {
  const e = c.entry;
  const ttl = e.ttlSeconds !== undefined ? `, ttlSeconds: ${tsNumber(e.ttlSeconds)}` : '';
  const comp = e.compensation !== undefined ? `, compensationOperation: ${tsString(e.compensation)}` : '';
  w.writeLine(
    `return runSaga(needStore(this.store, operation), { operation, key, scope: this.#scope, args: request${comp}${ttl} }, {`,
  );
  w.indent(() => {
    w.write('call: (ctx) => ');
    writeCall(w, c, h, 'saga', false, true);
    w.write(`.then((result) => ({ externalId: ${h.externalId}(operation, result), result })),`).newLine();
    const param = inverse?.parameters.filter((p) => p.in === 'path');
    if (inverse !== undefined && param !== undefined && param.length === 1) {
      // The inverse (`DELETE /things/{id}`) is addressed by the id the first call returned (saga, docs/concepts.md#mechanisms).
      w.write('compensate: (externalId) => {').newLine();
      w.indent(() => {
        w.writeLine(`const request = { path: { ${tsObjectKey(param[0]!.name)}: externalId } };`);
        w.write(`return this.#http.send({ method: ${tsString(inverse.method.toUpperCase())}, path: `);
        writePathExpression(w, inverse);
        w.write(
          `, bodyType: "none", mechanism: "saga", operation: ${tsString(inverse.key)} }).then(() => undefined);`,
        ).newLine();
      });
      w.writeLine('},');
    }
  });
  w.write('});');
}

function writeMethod(c: ClientOperation, h: HelperNames, inverse: HttpOperation | undefined): MethodDecl {
  const { entry } = c;
  const keyOpt = keyOption(entry, h);
  const native = isNative(entry);
  const blobs = mayCarryBlobs(c.types);
  const options: ParameterDecl = {
    name: 'options',
    type: keyOpt.type,
    ...(keyOpt.optional ? { optional: true } : {}),
  };
  // A write that needs the store is callable only on a client created with one (the `this` type says so).
  const self: ParameterDecl[] =
    usesDedupStore(entry) || entry.mechanism === 'saga' ? [{ name: 'this', type: `${h.clientClass}<DedupStore>` }] : [];
  return {
    name: methodName(c.op),
    // Async: a refused key or options object rejects the promise like every other failure, never throws synchronously.
    isAsync: true,
    docs: methodDoc(entry, c.auditLink),
    typeParameters: keyOpt.typeParameter !== undefined ? [keyOpt.typeParameter] : [],
    parameters: [...self, requestParam(c, !keyOpt.optional), options],
    returnType: `Promise<${native ? h.nativeWriteResult : h.writeResult}<${c.types.responseName}>>`,
    statements: (w) => {
      if (blobs) w.writeLine('await digestBlobs(request);');
      w.writeLine(`const operation = ${tsString(c.op.key)};`);
      const resolve = `${h.resolveKey}(operation, request, options, ${tsString(keyOpt.strategy)})`;
      if (native) {
        // Checked before the request: a key the server refuses or truncates would leave the retry undeduped.
        const l = c.keyLimits ?? { maxLength: 255, minLength: 16, apiLimits: [] };
        const api = l.apiLimits.length > 0 ? `, apiLimits: ${jsonText(l.apiLimits)}` : '';
        w.writeLine(
          `const key = validateKey(${resolve}, { maxLength: ${tsNumber(l.maxLength)}, minLength: ${tsNumber(l.minLength)}, operation${api} });`,
        );
        w.write('return ');
        writeCall(w, c, h, 'native-key', true);
        w.write(`.then((res) => ${h.nativeResult}<${c.types.responseName}>(res));`);
        return;
      }
      w.writeLine(`const key = ${resolve};`);
      if (entry.mechanism === 'saga') writeSaga(w, c, h, inverse);
      else writeStoreRun(w, c, h);
    },
  };
}

/** `Client.errorOf("POST /payouts", err)`: static, so it can never clash with an operation's method name. */
function errorOfMethod(h: HelperNames): MethodDecl {
  return {
    name: 'errorOf',
    isStatic: true,
    docs: "`err` typed by the error responses `operation` declares, when it is that call's `HttpStatusError`; else `undefined`.",
    typeParameters: [`K extends keyof ${h.errorsMap}`],
    parameters: [
      { name: 'operation', type: 'K' },
      { name: 'err', type: 'unknown' },
    ],
    returnType: `HttpErrorOf<${h.errorsMap}[K]> | undefined`,
    statements: [`return httpErrorOf<${h.errorsMap}[K]>(err, operation);`],
  };
}

/** `export type PaymentsErrors = { "POST /payouts": CreatePayoutErrors; … }`: what `errorOf` looks up. */
export function errorsMapStatement(ops: ClientOperation[], h: HelperNames): WriterFunction {
  const members = ops.map((c): TypeMember => ({ key: propertyKey(c.op.key), type: c.types.errorsName }));
  return typeAliasStatement(h.errorsMap, ["Each operation's `XErrors` by operation key (for `errorOf`)."], (w) =>
    writeObjectType(w, members),
  );
}

export function buildClientClass(ops: ClientOperation[], h: HelperNames, doc: string): ClassDecl {
  const byKey = new Map(ops.map((c) => [c.op.key, c.op]));
  const methods = [
    errorOfMethod(h),
    ...ops.map((c) =>
      isWrapped(c.entry)
        ? writeMethod(c, h, c.entry.compensation !== undefined ? byKey.get(c.entry.compensation) : undefined)
        : readMethod(c, h),
    ),
  ];
  const store = ops.some((c) => usesDedupStore(c.entry));
  const saga = ops.some((c) => isWrapped(c.entry) && c.entry.mechanism === 'saga');
  // Private members exist only when used: `--noUnusedLocals` flags unread private members.
  const props: PropertyDecl[] = [{ name: '#http', isReadonly: true, type: 'HttpCaller' }];
  const init = ['this.#http = createHttpCaller(options);'];
  const S = h.storeParam;
  if (store || saga) {
    props.unshift({
      name: 'store',
      isReadonly: true,
      type: S,
      docs: 'The dedup store this client was created with (`undefined`: only writes that need none are callable).',
    });
    init.push(`this.store = options.store as ${S};`);
  }
  if (store) {
    props.push({ name: '#idem', isReadonly: true, type: 'Idempotency | undefined' });
    init.push('this.#idem = options.store ? createIdempotency({ store: options.store }) : undefined;');
  }
  if (store || saga) {
    props.push({ name: '#scope', isReadonly: true, type: 'string | undefined' });
    init.push('this.#scope = options.scope;');
  }
  return {
    name: h.clientClass,
    docs: doc,
    properties: props,
    ctor: {
      parameters: [
        { name: 'options', type: store || saga ? `${h.clientOptions} & { store?: ${S} }` : h.clientOptions },
      ],
      statements: init,
    },
    ...(store || saga ? { typeParameters: [`${S} extends DedupStore | undefined = DedupStore | undefined`] } : {}),
    methods,
  };
}
