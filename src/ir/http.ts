/** OpenAPI paths → HttpOperations (one per path + method); webhooks and callbacks → events. */
import type { IrContext } from './context.js';
import { extensionsOf, stringArray, stringOrUndefined } from './context.js';
import { buildRequestBody, buildResponses, swaggerRequestBody } from './bodies.js';
import { buildParameters, isRequestParameter, placeholderPathParameters } from './parameters.js';
import { appendPointer } from '../json-pointer/pointer.js';
import { followRef, isObject } from '../json-pointer/refs.js';
import { serverUrls, swaggerServers } from './servers.js';
import type { RawOperation, RawPathItem } from './raw.js';
import { HTTP_METHODS, type EventOperation, type HttpMethod, type HttpOperation } from './types.js';

interface PathItem {
  item: RawPathItem;
  pointer: string;
}

/** A path item, following a `$ref` (Swagger 2.0 and OpenAPI 3.1 allow one). */
function pathItemAt(ctx: IrContext, raw: unknown, pointer: string): PathItem | undefined {
  const target = followRef(ctx.root, raw, pointer, ctx.refTarget);
  if (isObject(target.value)) return { item: target.value, pointer: target.pointer };
  if (target.value !== undefined || target.ref === undefined)
    ctx.report('invalid_path_item', 'warning', 'path item is not an object; ignored', pointer);
  return undefined;
}

/** Each `[method, operation, pointer]` of a path item, in HTTP_METHODS order. */
function operationsOf(ctx: IrContext, { item, pointer }: PathItem): [HttpMethod, RawOperation, string][] {
  const out: [HttpMethod, RawOperation, string][] = [];
  for (const method of HTTP_METHODS) {
    if (item[method] === undefined) continue;
    const opPointer = appendPointer(pointer, method);
    if (isObject(item[method])) out.push([method, item[method] as RawOperation, opPointer]);
    else ctx.report('invalid_operation', 'warning', `${method} is not an Operation Object; ignored`, opPointer);
  }
  return out;
}

/**
 * Server URLs by the `servers` array they were read from: the document's own list serves every operation
 * that declares none, so it is read once and the list shared (the IR is not edited once built).
 */
const SERVER_LISTS = new WeakMap<object, string[] | undefined>();

function sharedServerUrls(servers: unknown): string[] | undefined {
  if (!Array.isArray(servers)) return undefined;
  if (!SERVER_LISTS.has(servers)) SERVER_LISTS.set(servers, serverUrls(servers));
  return SERVER_LISTS.get(servers);
}

function effectiveServers(ctx: IrContext, op: RawOperation, item: RawPathItem): string[] {
  if (ctx.format === 'openapi2') return swaggerServers(ctx.root, op);
  return sharedServerUrls(op.servers) ?? sharedServerUrls(item.servers) ?? sharedServerUrls(ctx.root.servers) ?? [];
}

function buildOperation(
  ctx: IrContext,
  path: string,
  pathItem: PathItem,
  method: HttpMethod,
  op: RawOperation,
  pointer: string,
): HttpOperation {
  const broken: string[] = [];
  const declared = buildParameters(
    ctx,
    [
      { list: pathItem.item.parameters, pointer: appendPointer(pathItem.pointer, 'parameters') },
      { list: op.parameters, pointer: appendPointer(pointer, 'parameters') },
    ],
    broken,
  );
  // Swagger 2.0 `body`/`formData` parameters are the request body, never parameters, from here on.
  const parameters = declared.filter(isRequestParameter);
  if (broken.length > 0) parameters.push(...placeholderPathParameters(path, parameters, broken[0]));
  const requestBody =
    ctx.format === 'openapi2'
      ? swaggerRequestBody(ctx, op, declared, pointer)
      : buildRequestBody(ctx, op.requestBody, appendPointer(pointer, 'requestBody'));
  const security = Array.isArray(op.security)
    ? op.security
    : Array.isArray(ctx.root.security)
      ? ctx.root.security
      : undefined;
  const operation: HttpOperation = {
    kind: 'http',
    key: `${method.toUpperCase()} ${path}`,
    name: '',
    method,
    path,
    deprecated: op.deprecated === true,
    tags: stringArray(op.tags),
    parameters,
    responses: buildResponses(ctx, op, pointer),
    servers: effectiveServers(ctx, op, pathItem.item),
    extensions: extensionsOf(op),
    pathExtensions: extensionsOf(pathItem.item),
    source: { file: ctx.doc.file, pointer },
  };
  const operationId = stringOrUndefined(op.operationId);
  if (operationId !== undefined) operation.operationId = operationId;
  const summary = stringOrUndefined(op.summary) ?? stringOrUndefined(pathItem.item.summary);
  if (summary !== undefined) operation.summary = summary;
  const description = stringOrUndefined(op.description) ?? stringOrUndefined(pathItem.item.description);
  if (description !== undefined) operation.description = description;
  if (requestBody) operation.requestBody = requestBody;
  if (requestBody && (method === 'get' || method === 'head')) {
    ctx.report(
      'body_to_query',
      'info',
      `${operation.key} declares a request body; a ${method.toUpperCase()} carries none, so its fields are sent in the query string`,
      ctx.format === 'openapi2' ? pointer : appendPointer(pointer, 'requestBody'),
    );
  }
  if (security) operation.security = security as Record<string, string[]>[];
  return operation;
}

export function buildHttpOperations(ctx: IrContext): { operations: HttpOperation[]; events: EventOperation[] } {
  const operations: HttpOperation[] = [];
  const events: EventOperation[] = [];
  const paths = ctx.root.paths;
  if (paths !== undefined && !isObject(paths))
    ctx.report('invalid_paths', 'warning', '`paths` is not an object', '/paths');
  for (const path of isObject(paths) ? Object.keys(paths) : []) {
    if (path.startsWith('x-')) continue;
    const pathItem = pathItemAt(ctx, (paths as Record<string, unknown>)[path], appendPointer('/paths', path));
    if (!pathItem) continue;
    for (const [method, op, pointer] of operationsOf(ctx, pathItem)) {
      const operation = buildOperation(ctx, path, pathItem, method, op, pointer);
      operations.push(operation);
      events.push(...callbackEvents(ctx, operation.key, op, pointer));
    }
  }
  events.push(...webhookEvents(ctx));
  return { operations, events };
}

function webhookEvents(ctx: IrContext): EventOperation[] {
  const hooks = ctx.root.webhooks;
  if (!isObject(hooks)) return [];
  const out: EventOperation[] = [];
  for (const name of Object.keys(hooks)) {
    if (name.startsWith('x-')) continue;
    const item = pathItemAt(ctx, hooks[name], appendPointer('/webhooks', name));
    if (!item) continue;
    for (const [method, op, pointer] of operationsOf(ctx, item)) {
      out.push(event(ctx, 'webhook', `${method.toUpperCase()} webhook:${name}`, method, op, pointer));
    }
  }
  return out;
}

function callbackEvents(ctx: IrContext, opKey: string, op: RawOperation, opPointer: string): EventOperation[] {
  if (ctx.format === 'openapi2' || !isObject(op.callbacks)) return [];
  const out: EventOperation[] = [];
  for (const cbName of Object.keys(op.callbacks)) {
    if (cbName.startsWith('x-')) continue;
    const cb = followRef(ctx.root, op.callbacks[cbName], appendPointer(opPointer, 'callbacks', cbName), ctx.refTarget);
    if (!isObject(cb.value)) continue;
    for (const expression of Object.keys(cb.value)) {
      if (expression.startsWith('x-')) continue;
      const item = pathItemAt(ctx, cb.value[expression], appendPointer(cb.pointer, expression));
      if (!item) continue;
      for (const [method, cbOp, pointer] of operationsOf(ctx, item)) {
        out.push(
          event(
            ctx,
            'callback',
            `${method.toUpperCase()} callback:${opKey}#${cbName} ${expression}`,
            method,
            cbOp,
            pointer,
          ),
        );
      }
    }
  }
  return out;
}

function event(
  ctx: IrContext,
  kind: EventOperation['kind'],
  key: string,
  method: HttpMethod,
  op: RawOperation,
  pointer: string,
): EventOperation {
  const operationId = stringOrUndefined(op.operationId);
  // Names are made unique by the caller; keep the operationId when there is one.
  return { kind, key, method, name: operationId ?? '', source: { file: ctx.doc.file, pointer } };
}
