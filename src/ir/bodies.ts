/** Request bodies and responses, including Swagger 2.0 `body`/`formData` → requestBody via `consumes`. */
import type { IrContext } from './context.js';
import { stringArray, stringOrUndefined } from './context.js';
import { appendPointer } from '../json-pointer/pointer.js';
import { followRef, isObject } from '../json-pointer/refs.js';
import type { RawOperation } from './raw.js';
import type { MediaContent, Parameter, RequestBody, ResponseSpec } from './types.js';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

function mediaContents(content: unknown, pointer: string): MediaContent[] {
  if (!isObject(content)) return [];
  return Object.keys(content).map((mediaType) => {
    const media = content[mediaType];
    const item: MediaContent = { mediaType, pointer: appendPointer(pointer, mediaType) };
    if (isObject(media) && (isObject(media.schema) || typeof media.schema === 'boolean')) item.schema = media.schema as MediaContent['schema'];
    return item;
  });
}

export function buildRequestBody(ctx: IrContext, raw: unknown, pointer: string): RequestBody | undefined {
  if (raw === undefined) return undefined;
  const target = followRef(ctx.root, raw, pointer);
  if (!isObject(target.value)) return undefined;
  return {
    required: target.value.required === true,
    content: mediaContents(target.value.content, appendPointer(target.pointer, 'content')),
    pointer: target.pointer,
  };
}

/** Swagger 2.0 §4.3.5: `consumes` of the operation overrides the document's. */
function mediaTypes(own: unknown, inherited: unknown, fallback: string[]): string[] {
  const list = stringArray(own);
  if (list.length > 0) return list;
  const root = stringArray(inherited);
  return root.length > 0 ? root : fallback;
}

export function swaggerRequestBody(ctx: IrContext, op: RawOperation, params: Parameter[], opPointer: string): RequestBody | undefined {
  const consumes = mediaTypes(op.consumes, ctx.root.consumes, ['application/json']);
  const body = params.find((p) => p.in === 'body');
  if (body) {
    const content = consumes.map((mediaType) => ({ mediaType, pointer: appendPointer(body.pointer, 'schema'), ...(body.schema !== undefined ? { schema: body.schema } : {}) }));
    return { required: body.required, content, pointer: body.pointer };
  }
  const form = params.filter((p) => p.in === 'formData');
  if (form.length === 0) return undefined;
  const properties: Record<string, unknown> = {};
  for (const p of form) properties[p.name] = { ...(isObject(p.schema) ? p.schema : {}), ...(p.description ? { description: p.description } : {}) };
  const required = form.filter((p) => p.required).map((p) => p.name);
  const schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  const declared = consumes.filter((t) => FORM_TYPES.includes(t.split(';')[0].trim().toLowerCase()));
  const hasFile = form.some((p) => isObject(p.schema) && p.schema.format === 'binary');
  const types = declared.length > 0 ? declared : [hasFile ? 'multipart/form-data' : 'application/x-www-form-urlencoded'];
  const pointer = appendPointer(opPointer, 'parameters');
  return { required: required.length > 0, content: types.map((mediaType) => ({ mediaType, schema: schema, pointer })), pointer };
}

export function buildResponses(ctx: IrContext, op: RawOperation, opPointer: string): ResponseSpec[] {
  const responses = op.responses;
  if (!isObject(responses)) return [];
  const base = appendPointer(opPointer, 'responses');
  const out: ResponseSpec[] = [];
  for (const status of Object.keys(responses)) {
    if (status.startsWith('x-')) continue;
    const target = followRef(ctx.root, responses[status], appendPointer(base, status));
    const r = target.value;
    if (!isObject(r)) continue;
    const spec: ResponseSpec = {
      status,
      content: responseContent(ctx, op, r, target.pointer),
      headers: isObject(r.headers) ? Object.keys(r.headers) : [],
      pointer: target.pointer,
    };
    const description = stringOrUndefined(r.description);
    if (description !== undefined) spec.description = description;
    out.push(spec);
  }
  return out;
}

function responseContent(ctx: IrContext, op: RawOperation, r: Record<string, unknown>, pointer: string): MediaContent[] {
  if (ctx.format !== 'openapi2') return mediaContents(r.content, appendPointer(pointer, 'content'));
  if (r.schema === undefined) return [];
  const produces = mediaTypes(op.produces, ctx.root.produces, ['application/json']);
  return produces.map((mediaType) => ({ mediaType, schema: r.schema as MediaContent['schema'], pointer: appendPointer(pointer, 'schema') }));
}
