/**
 * The client class: one method per HTTP operation, each a typed facade of one line over the runtime's engine
 * (`this.#engine.read|write|writeNative(ops.x, request, options)`; its type argument is inferred from the
 * method's declared return type). The method keeps its own request, options
 * and result types (the key option a write's strategy demands, `this: Client<DedupStore>` where a store is
 * needed); what the call does is the operation's description (descriptions.ts) run by `executeOperation`.
 */
import type { ClassDecl, MethodDecl, ParameterDecl, PropertyDecl, WriterFunction } from './structures.js';
import type { HttpOperation } from '../../ir/types.js';
import type { PlanEntry } from '../../classify/types.js';
import { isSafeIdentifier, tsIdentifier, tsMember } from '../../escape/index.js';
import { methodDoc } from './jsdoc.js';
import type { OperationTypes } from './operation-types.js';
import type { HelperNames } from './helpers.js';
import { propertyKey } from './names.js';
import { typeAliasStatement, writeObjectType, type TypeMember } from './object-type.js';

export interface ClientOperation {
  entry: PlanEntry;
  op: HttpOperation;
  types: OperationTypes;
  /** The operation's row in the audit report (`../report/audit.md#post-payouts`), when the report is written. */
  auditLink?: string;
}

/** The IR hands out safe, unique names; re-checked here because a method name is code. */
export function methodName(op: HttpOperation): string {
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

/** PUT/DELETE safe to repeat by method semantics: no key, no store; the runtime retries an ambiguous outcome. */
export function isByMethod(entry: PlanEntry): boolean {
  return entry.mechanism === 'method-idempotent';
}

export function usesDedupStore(entry: PlanEntry): boolean {
  return isWrapped(entry) && !isNative(entry) && !isByMethod(entry) && entry.mechanism !== 'saga';
}

interface KeyOption {
  /** `options` parameter type; generic (`O`) where a scope is accepted, so `{ scope: {} }` does not compile. */
  type: string;
  optional: boolean;
  /** Type parameter of the method, when generic. */
  typeParameter?: string;
}

function keyOption(entry: PlanEntry, h: HelperNames): KeyOption {
  const checked = `O & ${h.nonEmptyScope}<O>`;
  switch (entry.keyStrategy) {
    case 'caller':
      return { type: h.callerKey, optional: false };
    case 'intent':
      return { type: checked, typeParameter: `O extends ${h.keyOptions}`, optional: false };
    case 'content':
      return {
        type: checked,
        typeParameter: `O extends ${h.keyOptions} | ${h.callOptions} = ${h.callOptions}`,
        optional: true,
      };
    case null:
      return { type: checked, typeParameter: `O extends ${h.keyOptions}`, optional: false };
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

/** The module-level constant the methods read (`ops.createCharge`): a value, so no schema type can clash with it. */
export const OPS_CONSTANT = 'ops';

/** `ops.createCharge`: the method's entry in the module's description constant. */
function opsMember(c: ClientOperation): string {
  return tsMember(OPS_CONSTANT, methodName(c.op));
}

function readMethod(c: ClientOperation, h: HelperNames): MethodDecl {
  return {
    name: methodName(c.op),
    docs: methodDoc(c.entry, c.auditLink),
    parameters: [requestParam(c), { name: 'options', type: h.callOptions, optional: true }],
    returnType: `Promise<${c.types.responseType}>`,
    statements: [`return this.#engine.read(${opsMember(c)}, request, options);`],
  };
}

/**
 * `method-idempotent`: `(request, options?: CallOptions)` — no key, no store. The engine retries an ambiguous
 * outcome; a retried DELETE that finds the resource gone resolves `{ result: null, wasReplay: true }`.
 */
function byMethodMethod(c: ClientOperation, h: HelperNames): MethodDecl {
  const result = c.op.method === 'delete' ? `${c.types.responseType} | null` : c.types.responseType;
  return {
    name: methodName(c.op),
    docs: methodDoc(c.entry, c.auditLink),
    parameters: [requestParam(c), { name: 'options', type: h.callOptions, optional: true }],
    returnType: `Promise<${h.nativeWriteResult}<${result}>>`,
    statements: [`return this.#engine.writeNative(${opsMember(c)}, request, options);`],
  };
}

function writeMethod(c: ClientOperation, h: HelperNames): MethodDecl {
  const { entry } = c;
  if (isByMethod(entry)) return byMethodMethod(c, h);
  const keyOpt = keyOption(entry, h);
  const native = isNative(entry);
  const options: ParameterDecl = {
    name: 'options',
    type: keyOpt.type,
    ...(keyOpt.optional ? { optional: true } : {}),
  };
  // A write that needs the store is callable only on a client created with one (the `this` type says so).
  const self: ParameterDecl[] =
    usesDedupStore(entry) || entry.mechanism === 'saga' ? [{ name: 'this', type: `${h.clientClass}<DedupStore>` }] : [];
  // The engine is async: a refused key or options object rejects the promise, never throws synchronously.
  const call = native ? 'writeNative' : 'write';
  return {
    name: methodName(c.op),
    docs: methodDoc(entry, c.auditLink),
    typeParameters: keyOpt.typeParameter !== undefined ? [keyOpt.typeParameter] : [],
    parameters: [...self, requestParam(c, !keyOpt.optional), options],
    returnType: `Promise<${native ? h.nativeWriteResult : h.writeResult}<${c.types.responseType}>>`,
    statements: [`return this.#engine.${call}(${opsMember(c)}, request, options);`],
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

/** `export type PaymentsErrors = { "POST /payouts": { 400: ApiError }; … }`: what `errorOf` looks up. */
export function errorsMapStatement(ops: ClientOperation[], h: HelperNames): WriterFunction {
  const members = ops.map((c): TypeMember => ({ key: propertyKey(c.op.key), type: c.types.errors }));
  return typeAliasStatement(
    h.errorsMap,
    [
      `Each operation's error bodies (status → body) by its key: what \`errorOf\` looks up; \`${h.errorsMap}["GET /x"]\` is one.`,
    ],
    (w) => writeObjectType(w, members),
  );
}

export function buildClientClass(ops: ClientOperation[], h: HelperNames, doc: string): ClassDecl {
  function* methods(): Generator<MethodDecl> {
    yield errorOfMethod(h);
    for (const c of ops) yield isWrapped(c.entry) ? writeMethod(c, h) : readMethod(c, h);
  }
  const store = ops.some((c) => usesDedupStore(c.entry) || (isWrapped(c.entry) && c.entry.mechanism === 'saga'));
  const props: PropertyDecl[] = [{ name: '#engine', isReadonly: true, type: 'OperationEngine' }];
  const init = ['this.#engine = createOperationEngine(options);'];
  const S = h.storeParam;
  if (store) {
    props.unshift({
      name: 'store',
      isReadonly: true,
      type: S,
      docs: 'The dedup store this client was created with (`undefined`: only writes that need none are callable).',
    });
    init.push(`this.store = options.store as ${S};`);
  }
  return {
    name: h.clientClass,
    docs: doc,
    properties: props,
    ctor: {
      parameters: [{ name: 'options', type: store ? `${h.clientOptions} & { store?: ${S} }` : h.clientOptions }],
      statements: init,
    },
    ...(store ? { typeParameters: [`${S} extends DedupStore | undefined = DedupStore | undefined`] } : {}),
    methods: methods(),
  };
}
