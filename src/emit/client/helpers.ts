/**
 * The per-file declarations of a client: the runtime imports (the key-option types and helpers every client
 * shares live in @idemgen/runtime's client-support, once), their re-export, the options type and the factory.
 */
import type { FunctionDecl, ImportDecl, WriterFunction } from './structures.js';
import { typeAliasStatement, writeObjectType, type TypeMember } from './object-type.js';
import type { NameTable } from './names.js';

/**
 * The entry generated code imports: the runtime's generated-code support (no generator dependencies), so an
 * application's production install needs `@idemgen/runtime`, not `idemgen`
 * (docs/decisions/0097-the-runtime-is-its-own-package-idemgen-runtime-built-from.md).
 */
const RUNTIME_MODULE = '@idemgen/runtime/support';

/** Runtime exports the generated code may use; reserved so no schema type can shadow them. */
export const RUNTIME_IMPORTS = [
  'createOperationEngine',
  'httpErrorOf',
  'HttpCallerOptions',
  'OperationDescription',
  'OperationEngine',
  'DedupStore',
  'RunResult',
  'NativeRunResult',
  'CallerKey',
  'IntentScope',
  'KeyOptions',
  'NonEmptyScope',
  'OmitKeyPath',
  'CallOptions',
  'HttpErrorOf',
] as const;

/** Key-option types a client with writes re-exports, so callers can type their options from the client module. */
const KEY_TYPES = ['CallerKey', 'IntentScope', 'KeyOptions', 'NonEmptyScope'];

export interface HelperNames {
  callerKey: string;
  intentScope: string;
  keyOptions: string;
  /** Per-call `headers` and `signal` (reads take only these). */
  callOptions: string;
  /** Generic check that turns `{ scope: {} }` into a compile error. */
  nonEmptyScope: string;
  /** The runtime's `RunResult` (docs/concepts.md#replay envelope). */
  writeResult: string;
  /** `RunResult` of a native-key call: `originalCalledAt` only when known (docs/concepts.md#replay). */
  nativeWriteResult: string;
  clientOptions: string;
  clientClass: string;
  /** `PaymentsErrors`: each operation's error bodies by status, by operation key. */
  errorsMap: string;
  factory: string;
  /** The client's type parameter: the store it was given (`undefined` without one). */
  storeParam: string;
}

export function claimHelperNames(names: NameTable, apiName: string): HelperNames {
  return {
    // Runtime names: reserved in the name table (RUNTIME_IMPORTS), so no schema type can take them.
    callerKey: 'CallerKey',
    intentScope: 'IntentScope',
    keyOptions: 'KeyOptions',
    callOptions: 'CallOptions',
    nonEmptyScope: 'NonEmptyScope',
    writeResult: 'RunResult',
    nativeWriteResult: 'NativeRunResult',
    clientOptions: names.claim(`${apiName}ClientOptions`),
    clientClass: names.claim(`${apiName}Client`),
    errorsMap: names.claim(`${apiName}Errors`),
    factory: names.claim(`create${apiName}Client`),
    storeParam: names.claim('StoreType'),
  };
}

export interface HelperUse {
  writes: boolean;
  store: boolean;
  saga: boolean;
  native: boolean;
  /** Some write is `method-idempotent` (no key, no store; its result goes through `nativeResult`). */
  byMethod: boolean;
  content: boolean;
  /** Some body type drops a nested native-key path (`OmitKeyPath`). */
  omitKeyPath: boolean;
  /** A read method, or a content-keyed write: they name `CallOptions` themselves. */
  callOptions: boolean;
}

export function runtimeImports(use: HelperUse): ImportDecl[] {
  const types = ['HttpCallerOptions', 'HttpErrorOf', 'OperationDescription', 'OperationEngine'];
  if (use.store || use.saga) types.push('DedupStore');
  if (use.writes && (use.store || use.saga)) types.push('RunResult');
  if (use.native || use.byMethod) types.push('NativeRunResult');
  if (use.writes) types.push(...KEY_TYPES);
  if (use.omitKeyPath) types.push('OmitKeyPath');
  if (use.callOptions) types.push('CallOptions');
  return [
    { moduleSpecifier: RUNTIME_MODULE, namedImports: ['createOperationEngine', 'httpErrorOf'] },
    { moduleSpecifier: RUNTIME_MODULE, namedImports: types.sort(), isTypeOnly: true },
  ];
}

/** `export type { CallerKey, … }`: the key-option types stay importable from the client module. */
export function keyTypeExports(use: HelperUse): string[] {
  return use.writes ? KEY_TYPES : [];
}

function fn(
  name: string,
  doc: string,
  params: [string, string][],
  returnType: string,
  statements: string[],
  typeParameters: string[] = [],
): FunctionDecl {
  return {
    name,
    docs: doc,
    typeParameters,
    parameters: params.map(([n, type]) => ({ name: n, type })),
    returnType,
    statements,
  };
}

/** The principal namespace: of the stored keys, and of a native key (sent as a hash of scope and key). */
const SCOPE_OPTION: TypeMember = {
  key: 'scope',
  optional: true,
  type: 'string',
  docs: ["Tenant/principal namespace of the stored keys; a native key is sent as a hash of it and the caller's key."],
};

/** What the options type adds to the runtime's `HttpCallerOptions` when some write needs the dedup store. */
const STORE_OPTIONS: TypeMember[] = [
  {
    key: 'store',
    optional: true,
    type: 'DedupStore',
    docs: [
      'Dedup store for the writes here that have no native key; without one, only those',
      'writes are unavailable (calling one does not compile).',
    ],
  },
  SCOPE_OPTION,
];

/** `export type XClientOptions = HttpCallerOptions & { store?; scope? }`. */
export function optionsTypeStatement(h: HelperNames, use: HelperUse): WriterFunction {
  const members = use.store || use.saga ? STORE_OPTIONS : use.native ? [SCOPE_OPTION] : [];
  return typeAliasStatement(
    h.clientOptions,
    ['`baseUrl`, `headers`, `fetch`, `timeoutMs`, `retry` go to the runtime HTTP layer.'],
    (w) => {
      w.write('HttpCallerOptions');
      if (members.length > 0) w.write(' & ');
      if (members.length > 0) writeObjectType(w, members);
    },
  );
}

export function factoryStatement(h: HelperNames, use: HelperUse): FunctionDecl {
  if (!(use.store || use.saga)) {
    return fn(h.factory, `Create a {@link ${h.clientClass}}.`, [['options', h.clientOptions]], h.clientClass, [
      `return new ${h.clientClass}(options);`,
    ]);
  }
  const S = h.storeParam;
  return fn(
    h.factory,
    `Create a {@link ${h.clientClass}}; pass \`store\` to enable the writes that need one.`,
    [['options', `${h.clientOptions} & { store?: ${S} }`]],
    `${h.clientClass}<${S}>`,
    [`return new ${h.clientClass}(options);`],
    [`${S} extends DedupStore | undefined = undefined`],
  );
}
