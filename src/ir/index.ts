/**
 * Stage 2: LoadedDoc → ApiModel (the operation IR every later stage reads). Pure: no I/O.
 * Operations are sorted by key and carry unique, safe TypeScript names.
 */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { LoadedDoc } from '../load/types.js';
import { apiIdFromFile, uniqueApiIds } from './api-id.js';
import type { IrContext } from './context.js';
import { refTargets, stringOrUndefined } from './context.js';
import { buildHttpOperations } from './http.js';
import {
  assignNamesWithCollisions,
  assignUniqueNames,
  camelCase,
  makeSafeIdentifier,
  operationBaseName,
  operationNameRank,
  synthesizeOperationName,
  toolBaseName,
  type NameCollision,
} from './names.js';
import { appendPointer } from '../json-pointer/pointer.js';
import { isObject } from '../json-pointer/refs.js';
import { normalizeSchemas } from './schemas.js';
import { serverUrls, swaggerServers } from './servers.js';
import { buildToolOperations } from './tools.js';
import type { ApiModel, EventOperation, HttpOperation, Operation, SpecFormat } from './types.js';

export interface IrResult {
  api: ApiModel;
  diagnostics: Diagnostic[];
}

function byKey<T extends { key: string }>(a: T, b: T): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** How the IR reports. `locate: false`: diagnostics carry file and pointer only (see `buildApiModels`). */
export interface IrOptions {
  locate?: boolean;
}

function makeReporter(doc: LoadedDoc, diagnostics: Diagnostic[], opts: IrOptions): IrContext['report'] {
  if (opts.locate === false)
    return (code, severity, message, pointer) => {
      diagnostics.push(diagnostic(code, severity, message, { file: doc.file, pointer }));
    };
  return (code, severity, message, pointer) => {
    diagnostics.push(diagnostic(code, severity, message, { file: doc.file, pointer, ...doc.locate(pointer) }));
  };
}

export function buildApiModel(doc: LoadedDoc, opts: IrOptions = {}): IrResult {
  const diagnostics: Diagnostic[] = [];
  const report = makeReporter(doc, diagnostics, opts);
  const api: ApiModel = {
    id: apiIdFromFile(doc.file),
    file: doc.file,
    format: doc.format,
    servers: [],
    operations: [],
    events: [],
    root: doc.root,
  };
  if (doc.kind === 'tools') {
    const { operations, format } = buildToolOperations({ doc, diagnostics, report });
    const bases = operations.map((op) => ({
      key: op.key,
      base: toolBaseName(op.toolName),
      rank: /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(op.toolName) && toolBaseName(op.toolName) === op.toolName ? 0 : 2,
    }));
    const { names, collisions } = assignNamesWithCollisions(bases);
    for (const op of operations) op.name = names.get(op.key)!;
    reportCollisions(
      report,
      collisions,
      new Map(operations.map((op) => [op.key, op.source.pointer])),
      new Map(operations.map((op) => [op.key, `tool name ${op.toolName}`])),
    );
    api.format = format;
    api.operations = operations.sort(byKey);
    return { api, diagnostics };
  }
  if (!isObject(doc.root)) {
    report('invalid_document', 'error', 'the document is not an object', '');
    return { api, diagnostics };
  }
  const format = doc.format as SpecFormat;
  // Schemas in the 3.1 form from here on (ir/schemas.ts); `doc.root` itself stays as it was read.
  // A JSON text with no other file bundled in is a tree (JSON.parse shares no node): no alias bookkeeping.
  const tree = doc.syntax === 'json' && doc.parts.length === 0;
  const root = normalizeSchemas(doc.root, format, { tree }) as typeof doc.root;
  api.root = root;
  const ctx: IrContext = { doc, root, format, diagnostics, report, refTarget: refTargets(root) };
  const info = isObject(root.info) ? root.info : {};
  api.title = stringOrUndefined(info.title);
  api.version = info.version === undefined ? undefined : String(info.version);
  api.servers = ctx.format === 'openapi2' ? swaggerServers(root, {}) : (serverUrls(root.servers) ?? []);
  const { operations, events } = buildHttpOperations(ctx);
  // Sorted once, here: nameHttpOperations' own sort of a sorted copy is then one linear pass.
  operations.sort(byKey);
  nameHttpOperations(ctx, operations);
  nameEvents(events);
  api.operations = operations as Operation[];
  api.events = events.sort(byKey);
  if (api.title === undefined) delete api.title;
  if (api.version === undefined) delete api.version;
  return { api, diagnostics };
}

/** How an operation came by its name, for the collision message. */
function nameOrigin(op: HttpOperation): string {
  return op.operationId === undefined ? 'synthesized from method and path' : `operationId ${op.operationId}`;
}

/**
 * `operation_name_collision`: every rename is reported at the renamed operation (its operationId when
 * it has one), naming the operation that kept the name, so no client method changes name silently.
 */
function reportCollisions(
  report: IrContext['report'],
  collisions: readonly NameCollision[],
  pointers: ReadonlyMap<string, string>,
  origins: ReadonlyMap<string, string>,
): void {
  for (const c of collisions) {
    const message = `${c.key} (${origins.get(c.key)}) would be named ${c.base}, which ${c.heldBy} (${origins.get(c.heldBy)}) keeps; renamed ${c.name}`;
    report('operation_name_collision', 'warning', message, pointers.get(c.key) ?? '');
  }
}

/**
 * Duplicate operationIds are reported and disambiguated, never overwritten. An operationId that is
 * already a valid identifier keeps its name; sanitized and synthesized names yield (names.ts ranks).
 */
function nameHttpOperations(ctx: IrContext, operations: HttpOperation[]): void {
  const sorted = [...operations].sort(byKey);
  const firstById = new Map<string, HttpOperation>();
  for (const op of sorted) {
    if (op.operationId === undefined) continue;
    const first = firstById.get(op.operationId);
    if (!first) firstById.set(op.operationId, op);
    else
      ctx.report(
        'duplicate_operation_id',
        'warning',
        `operationId ${op.operationId} is also used by ${first.key}; this operation gets a suffixed name`,
        appendPointer(op.source.pointer, 'operationId'),
      );
  }
  const items = sorted.map((op) => {
    // camelCase of the operationId once, for both the name and its rank.
    const camel = op.operationId === undefined ? '' : camelCase(op.operationId);
    const base = operationBaseName(op.method, op.path, op.operationId, camel);
    return { key: op.key, base, rank: operationNameRank(op.operationId, base, camel) };
  });
  const { names, collisions } = assignNamesWithCollisions(items);
  for (const op of operations) op.name = names.get(op.key)!;
  if (collisions.length === 0) return;
  const pointers = new Map(
    sorted.map((op) => [
      op.key,
      op.operationId === undefined ? op.source.pointer : appendPointer(op.source.pointer, 'operationId'),
    ]),
  );
  reportCollisions(ctx.report, collisions, pointers, new Map(sorted.map((op) => [op.key, nameOrigin(op)])));
}

function nameEvents(events: EventOperation[]): void {
  const bases = events.map((e) => {
    const fromId = e.name === '' ? '' : camelCase(e.name);
    const target = e.key.slice(e.key.indexOf(' ') + 1);
    return {
      key: e.key,
      base:
        fromId !== ''
          ? makeSafeIdentifier(fromId)
          : synthesizeOperationName(e.method, target.replace(/^(webhook|callback):/, '/')),
    };
  });
  const names = assignUniqueNames(bases);
  for (const e of events) e.name = names.get(e.key)!;
}

/**
 * Models for several inputs, with `api.id` made unique across them (deterministically, by file).
 * `opts.locate: false` leaves line/col off the diagnostics, for a caller that drops most of them and
 * locates the rest itself (`locateDiagnostics`): `idemgen serve` keeps errors only, and locating each of
 * Stripe's 213 `body_to_query` notes in its one-line JSON cost ≈ 25 ms of a first start.
 */
export function buildApiModels(
  docs: readonly LoadedDoc[],
  names: readonly (string | undefined)[] = [],
  opts: IrOptions = {},
): { apis: ApiModel[]; diagnostics: Diagnostic[] } {
  const results = docs.map((doc) => buildApiModel(doc, opts));
  // A configured apiName replaces the file-derived id (still made unique below).
  for (const [i, r] of results.entries()) r.api.id = names[i] ?? r.api.id;
  const ids = uniqueApiIds(results.map((r) => ({ file: r.api.file, id: r.api.id })));
  for (const [i, r] of results.entries()) r.api.id = ids[i];
  const apis = results.map((r) => r.api).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { apis, diagnostics: results.flatMap((r) => r.diagnostics) };
}
