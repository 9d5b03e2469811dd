/**
 * The per-file declarations every client shares: the runtime import, the key-option types that make a
 * keyless write a compile error (SOP §6: a side effect never runs without a key decided before the call),
 * small local helpers, the options type and the factory.
 */
import { StructureKind, type FunctionDeclarationStructure, type ImportDeclarationStructure, type StatementStructures } from 'ts-morph';
import type { NameTable } from './names.js';

/** Runtime exports the generated code may use; reserved so no schema type can shadow them. */
export const RUNTIME_IMPORTS = [
  'createHttpCaller', 'createIdempotency', 'runSaga', 'intentKey', 'contentKey', 'digestBlobs', 'validateKey',
  'HttpCaller', 'HttpCallerOptions', 'HttpResponse', 'Idempotency', 'DedupStore', 'RunResult',
] as const;

export interface HelperNames {
  callerKey: string;
  intentScope: string;
  keyOptions: string;
  /** Generic check that turns `{ scope: {} }` into a compile error. */
  nonEmptyScope: string;
  /** The runtime's `RunResult` (SOP Step 7 envelope). */
  writeResult: string;
  resolveKey: string;
  headers: string;
  nativeResult: string;
  externalId: string;
  clientOptions: string;
  clientClass: string;
  factory: string;
}

export function claimHelperNames(names: NameTable, apiName: string): HelperNames {
  return {
    callerKey: names.claim('CallerKey'),
    intentScope: names.claim('IntentScope'),
    keyOptions: names.claim('KeyOptions'),
    nonEmptyScope: names.claim('NonEmptyScope'),
    writeResult: 'RunResult',
    resolveKey: names.claim('resolveKey'),
    headers: names.claim('headersOf'),
    nativeResult: names.claim('nativeResult'),
    externalId: names.claim('externalIdOf'),
    clientOptions: names.claim(`${apiName}ClientOptions`),
    clientClass: names.claim(`${apiName}Client`),
    factory: names.claim(`create${apiName}Client`),
  };
}

export interface HelperUse {
  writes: boolean;
  store: boolean;
  saga: boolean;
  native: boolean;
  content: boolean;
  headers: boolean;
  /** Some write hashes a body that may hold Blobs. */
  blobs: boolean;
}

export function runtimeImports(use: HelperUse): ImportDeclarationStructure[] {
  const values = ['createHttpCaller'];
  if (use.store) values.push('createIdempotency');
  if (use.saga) values.push('runSaga');
  if (use.writes) values.push('intentKey');
  if (use.content) values.push('contentKey');
  if (use.blobs) values.push('digestBlobs');
  if (use.native) values.push('validateKey');
  const types = ['HttpCaller', 'HttpCallerOptions'];
  if (use.native) types.push('HttpResponse');
  if (use.store) types.push('Idempotency');
  if (use.store || use.saga) types.push('DedupStore');
  if (use.writes) types.push('RunResult');
  return [
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: 'idemgen/runtime', namedImports: values },
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: 'idemgen/runtime', namedImports: types.sort(), isTypeOnly: true },
  ];
}

function alias(name: string, type: string, doc: string, typeParameters: string[] = []): StatementStructures {
  return { kind: StructureKind.TypeAlias, name, isExported: true, type, docs: [doc], typeParameters };
}

function fn(name: string, doc: string, params: [string, string][], returnType: string, statements: string[], typeParameters: string[] = []): FunctionDeclarationStructure {
  return {
    kind: StructureKind.Function,
    name,
    docs: [doc],
    typeParameters,
    parameters: params.map(([n, type]) => ({ name: n, type })),
    returnType,
    statements,
  };
}

/** Run-time twin of the key-option types: JavaScript callers (and `as any`) bypass the compile-time checks. */
function resolveKeyStatements(use: HelperUse): string[] {
  return [
    'const { key, scope } = options ?? {};',
    'if (key !== undefined && scope !== undefined) throw new TypeError(`${operation}: pass { key } or { scope }, not both`);',
    'if (key !== undefined) return key;',
    'if (strategy === "key") throw new TypeError(`${operation}: pass { key }, created and persisted in your state before the call`);',
    'if (scope !== undefined) {',
    '  if (typeof scope !== "object" || scope === null || Object.keys(scope).length === 0) {',
    '    throw new TypeError(`${operation}: { scope } must name at least one id (thread, run, node); an empty scope would key the call by its arguments alone`);',
    '  }',
    '  return intentKey({ scope, operation, args });',
    '}',
    ...(use.content ? ['if (strategy === "content") return contentKey({ operation, args });'] : []),
    'throw new TypeError(`${operation}: pass { key } or { scope }; a write never runs without one`);',
  ];
}

const NON_EMPTY_SCOPE =
  'O extends { scope: infer S } ? (string extends keyof S ? O : [keyof S] extends [never] ? { scope: { "scope must name at least one id (thread, run, node)": string } } : O) : O';

function writeHelpers(h: HelperNames, use: HelperUse): StatementStructures[] {
  const out: StatementStructures[] = [
    alias(h.callerKey, '{ key: string; scope?: undefined }', 'An explicit key, created once and persisted in your state before the call (SOP Step 3).'),
    alias(h.intentScope, '{ scope: Record<string, string>; key?: undefined }', 'Intent scope (thread/turn/run/node ids): the key is hash(scope, operation, arguments) (SOP Step 3).'),
    alias(h.keyOptions, `${h.callerKey} | ${h.intentScope}`, 'Either an explicit key or an intent scope; a write never runs without one.'),
    alias(h.nonEmptyScope, NON_EMPTY_SCOPE,
      '`{ scope: {} }` names no intent: two intents with equal arguments would share one key. A literal empty scope does not compile; a `Record<string, string>` is checked at run time.',
      ['O']),
    fn(h.resolveKey, 'An explicit key wins; else the intent hash of a non-empty scope + operation + arguments (never a fresh random key, SOP §6).',
      [['operation', 'string'], ['args', 'unknown'], ['options', '{ key?: string; scope?: Record<string, string> } | undefined'], ['strategy', '"key" | "given" | "content"']],
      // One statement text: ts-morph would put blank lines around each block of a statement list.
      'string', [resolveKeyStatements(use).join('\n')]),
  ];
  if (use.native) {
    out.push(fn(h.nativeResult, 'OP-1: the server dedupes; a replay is visible through `Idempotent-Replayed` (Stripe) and its `Date`.',
      [['res', 'HttpResponse']], 'RunResult<T>', [
        `const wasReplay = res.headers["idempotent-replayed"] === "true";`,
        'const date = res.headers["date"];',
        'return { result: res.body as T, wasReplay, originalCalledAt: wasReplay && date !== undefined ? new Date(date) : new Date() };',
      ], ['T']));
  }
  if (use.saga) {
    // Thrown inside the saga's call, after the request: the runtime keeps the row pending and answers
    // IdempotencyOutcomeUnknownError, so the booking is reconciled, never silently repeated (SOP OP-5).
    out.push(fn(h.externalId, 'OP-5: the id the downstream assigned, recorded so a duplicate returns it and reconcile can compensate it.',
      [['operation', 'string'], ['result', 'unknown']], 'string', [
        'const id = typeof result === "object" && result !== null ? (result as { id?: unknown }).id : undefined;',
        'if ((typeof id === "string" && id !== "") || (typeof id === "number" && Number.isFinite(id))) return String(id);',
        'throw new Error(`${operation}: the response has no id, so the saga cannot record what to compensate; the call was made: reconcile it, do not retry`);',
      ]));
  }
  return out;
}

export function helperStatements(h: HelperNames, use: HelperUse): StatementStructures[] {
  const out: StatementStructures[] = use.writes ? writeHelpers(h, use) : [];
  if (use.headers) {
    out.push(fn(h.headers, 'Header and cookie parameters as the string map fetch sends (RFC 6265 §4.2 cookie pairs).',
      [['header', 'Record<string, unknown> | undefined'], ['cookie', 'Record<string, unknown> | undefined']], 'Record<string, string>', [
        'const out: Record<string, string> = {};',
        'for (const [k, v] of Object.entries(header ?? {})) if (v !== undefined && v !== null) out[k] = Array.isArray(v) ? v.join(",") : String(v);',
        'const jar = Object.entries(cookie ?? {}).filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);',
        'if (jar.length > 0) out["cookie"] = jar.join("; ");',
        'return out;',
      ]));
  }
  const store = use.store || use.saga
    ? ' & {\n  /** Dedup store (SOP Step 6): required because some writes here have no native key. */\n  store: DedupStore;\n  /** Tenant/principal namespace of the stored keys. */\n  scope?: string;\n}'
    : '';
  out.push(alias(h.clientOptions, `HttpCallerOptions${store}`, '`baseUrl`, `headers`, `fetch`, `timeoutMs`, `retry` go to the runtime HTTP layer.'));
  return out;
}

export function factoryStatement(h: HelperNames): StatementStructures {
  return { ...fn(h.factory, `Create a {@link ${h.clientClass}}.`, [['options', h.clientOptions]], h.clientClass, [`return new ${h.clientClass}(options);`]), isExported: true };
}
