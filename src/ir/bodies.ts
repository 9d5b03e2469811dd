/**
 * Request bodies and responses. Swagger 2.0 `body`/`formData` parameters become the same `RequestBody` an
 * OpenAPI 3.x `requestBody` does (media types from `consumes`), so no later stage handles them again.
 */
import type { IrContext } from './context.js';
import { stringArray, stringOrUndefined } from './context.js';
import { appendPointer } from '../json-pointer/pointer.js';
import { followRef, isObject } from '../json-pointer/refs.js';
import { getOrAdd } from '../objects.js';
import type { RawOperation } from './raw.js';
import type { SourceParameter } from './parameters.js';
import type { MediaContent, RequestBody, ResponseSpec } from './types.js';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * Media lists by `content` object and pointer: a response or request body reached through a `$ref` is the same
 * object at the same pointer for every operation that names it (Graph's 11,000 operations share one error
 * response), so its list is built once and shared. The IR is read, never edited, after it is built.
 */
const MEDIA_LISTS = new WeakMap<object, Map<string, MediaContent[]>>();

function mediaContents(content: unknown, pointer: string): MediaContent[] {
  if (!isObject(content)) return [];
  const byPointer = getOrAdd(MEDIA_LISTS, content, () => new Map<string, MediaContent[]>());
  return getOrAdd(byPointer, pointer, () => readMediaContents(content, pointer));
}

function readMediaContents(content: Record<string, unknown>, pointer: string): MediaContent[] {
  return Object.keys(content).map((mediaType) => {
    const media = content[mediaType];
    const at = appendPointer(pointer, mediaType);
    // Each shape as one literal: a member added later would give the object a separate property store.
    return isObject(media) && (isObject(media.schema) || typeof media.schema === 'boolean')
      ? { mediaType, pointer: at, schema: media.schema as MediaContent['schema'] }
      : { mediaType, pointer: at };
  });
}

export function buildRequestBody(ctx: IrContext, raw: unknown, pointer: string): RequestBody | undefined {
  if (raw === undefined) return undefined;
  const target = followRef(ctx.root, raw, pointer, ctx.refTarget);
  if (!isObject(target.value)) return undefined;
  const body: RequestBody = {
    required: target.value.required === true,
    content: mediaContents(target.value.content, appendPointer(target.pointer, 'content')),
    pointer: target.pointer,
  };
  const description = stringOrUndefined(target.value.description);
  if (description !== undefined) body.description = description;
  return body;
}

/** Swagger 2.0 §4.3.5: `consumes` of the operation overrides the document's. */
function mediaTypes(own: unknown, inherited: unknown, fallback: string[]): string[] {
  const list = stringArray(own);
  if (list.length > 0) return list;
  const root = stringArray(inherited);
  return root.length > 0 ? root : fallback;
}

/**
 * Swagger 2.0 §4.3.5: the `body` parameter's schema under every `consumes` type; `formData` parameters as
 * the properties of one object schema (`type: file` is already `format: binary`, parameters.ts) under the
 * declared form type, else multipart when a file is sent and urlencoded otherwise.
 */
export function swaggerRequestBody(
  ctx: IrContext,
  op: RawOperation,
  params: readonly SourceParameter[],
  opPointer: string,
): RequestBody | undefined {
  const consumes = mediaTypes(op.consumes, ctx.root.consumes, ['application/json']);
  const body = params.find((p) => p.in === 'body');
  if (body) {
    // The parameter plays the Media Type Object's part: its `schema` is at `<pointer>/schema`, as in 3.x.
    const content = consumes.map((mediaType) => ({
      mediaType,
      pointer: body.pointer,
      ...(body.schema !== undefined ? { schema: body.schema } : {}),
    }));
    return {
      required: body.required,
      ...(body.description !== undefined ? { description: body.description } : {}),
      content,
      pointer: body.pointer,
    };
  }
  const form = params.filter((p) => p.in === 'formData');
  if (form.length === 0) return undefined;
  const properties: Record<string, unknown> = {};
  const fieldPointers: Record<string, string> = {};
  for (const p of form) {
    properties[p.name] = {
      ...(isObject(p.schema) ? p.schema : {}),
      ...(p.description ? { description: p.description } : {}),
    };
    fieldPointers[p.name] = p.pointer;
  }
  const required = form.filter((p) => p.required).map((p) => p.name);
  const schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  const declared = consumes.filter((t) => FORM_TYPES.includes(t.split(';')[0].trim().toLowerCase()));
  const hasFile = form.some((p) => isObject(p.schema) && p.schema.format === 'binary');
  const types =
    declared.length > 0 ? declared : [hasFile ? 'multipart/form-data' : 'application/x-www-form-urlencoded'];
  const pointer = appendPointer(opPointer, 'parameters');
  return {
    required: required.length > 0,
    content: types.map((mediaType) => ({ mediaType, schema, pointer, fieldPointers })),
    pointer,
  };
}

export function buildResponses(ctx: IrContext, op: RawOperation, opPointer: string): ResponseSpec[] {
  const responses = op.responses;
  if (!isObject(responses)) return [];
  const base = appendPointer(opPointer, 'responses');
  const out: ResponseSpec[] = [];
  for (const status of Object.keys(responses)) {
    if (status.startsWith('x-')) continue;
    const target = followRef(ctx.root, responses[status], appendPointer(base, status), ctx.refTarget);
    const r = target.value;
    if (!isObject(r)) continue;
    const content = responseContent(ctx, op, r, target.pointer);
    const headers = isObject(r.headers) ? Object.keys(r.headers) : [];
    const description = stringOrUndefined(r.description);
    out.push(
      description !== undefined
        ? { status, content, headers, pointer: target.pointer, description }
        : { status, content, headers, pointer: target.pointer },
    );
  }
  return out;
}

function responseContent(
  ctx: IrContext,
  op: RawOperation,
  r: Record<string, unknown>,
  pointer: string,
): MediaContent[] {
  if (ctx.format !== 'openapi2') return mediaContents(r.content, appendPointer(pointer, 'content'));
  if (r.schema === undefined) return [];
  const produces = mediaTypes(op.produces, ctx.root.produces, ['application/json']);
  return produces.map((mediaType) => ({
    mediaType,
    schema: r.schema as MediaContent['schema'],
    pointer: appendPointer(pointer, 'schema'),
  }));
}
