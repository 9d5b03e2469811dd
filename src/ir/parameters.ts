/** Parameters: path-item + operation level merged (operation wins by name + in), `$ref`s followed. */
import type { IrContext } from './context.js';
import { stringOrUndefined } from './context.js';
import { appendPointer } from '../json-pointer/pointer.js';
import { getOrAdd } from '../objects.js';
import { followRef, isObject } from '../json-pointer/refs.js';
import type { JsonSchema, Parameter, ParameterLocation } from './types.js';

/** A parameter as declared: Swagger 2.0 also has `body` and `formData`, which bodies.ts turns into the request body. */
export interface SourceParameter extends Omit<Parameter, 'in'> {
  in: ParameterLocation | 'body' | 'formData';
}

const LOCATIONS: ReadonlySet<string> = new Set<ParameterLocation>(['path', 'query', 'header', 'cookie']);
const SWAGGER_LOCATIONS: ReadonlySet<string> = new Set([...LOCATIONS, 'body', 'formData']);

export function isRequestParameter(p: SourceParameter): p is Parameter {
  return LOCATIONS.has(p.in);
}

// Swagger 2.0 non-body parameters carry their schema inline (§4.3.5 Parameter Object).
const SWAGGER_SCHEMA_KEYS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
];

function swaggerInlineSchema(p: Record<string, unknown>): JsonSchema {
  if (p.type === 'file') return { type: 'string', format: 'binary' };
  const schema: Record<string, unknown> = {};
  for (const key of SWAGGER_SCHEMA_KEYS) if (p[key] !== undefined) schema[key] = p[key];
  return schema;
}

function parameterSchema(ctx: IrContext, p: Record<string, unknown>): JsonSchema | undefined {
  if (isObject(p.schema) || typeof p.schema === 'boolean') return p.schema as JsonSchema;
  if (ctx.format !== 'openapi2' && isObject(p.content)) {
    for (const media of Object.values(p.content)) if (isObject(media) && isObject(media.schema)) return media.schema;
    return undefined;
  }
  return ctx.format === 'openapi2' && p.in !== 'body' ? swaggerInlineSchema(p) : undefined;
}

/**
 * Parameters reached through a `$ref`, by target object, then by the ref as written: every operation that names
 * the same component gets the same object (Graph's OData options on 5,800 reads). The IR is not edited once built.
 */
const SHARED_PARAMETERS = new WeakMap<object, Map<string, SourceParameter>>();

function buildParameter(ctx: IrContext, raw: unknown, pointer: string, broken: string[]): SourceParameter | undefined {
  const target = followRef(ctx.root, raw, pointer, ctx.refTarget);
  const p = target.value;
  const locations = ctx.format === 'openapi2' ? SWAGGER_LOCATIONS : LOCATIONS;
  if (!isObject(p) || typeof p.name !== 'string' || typeof p.in !== 'string' || !locations.has(p.in)) {
    // An unresolved $ref was already reported by the loader; anything else is malformed here.
    if (target.value !== undefined || target.ref === undefined) {
      ctx.report('invalid_parameter', 'warning', 'parameter without a valid name/in is ignored', pointer);
    } else broken.push(pointer);
    return undefined;
  }
  if (target.ref === undefined) return makeParameter(ctx, p, target.pointer, undefined);
  const { ref, pointer: at } = target;
  const byRef = getOrAdd(SHARED_PARAMETERS, p, () => new Map<string, SourceParameter>());
  return getOrAdd(byRef, `${ref}\u0000${at}`, () => makeParameter(ctx, p, at, ref));
}

/** A parameter whose `name` and `in` were checked (buildParameter). */
function makeParameter(
  ctx: IrContext,
  p: Record<string, unknown>,
  pointer: string,
  ref: string | undefined,
): SourceParameter {
  const param: SourceParameter = {
    name: p.name as string,
    in: p.in as SourceParameter['in'],
    required: p.required === true || p.in === 'path',
    pointer,
  };
  const schema = parameterSchema(ctx, p);
  if (schema !== undefined) param.schema = schema;
  const description = stringOrUndefined(p.description);
  if (description !== undefined) param.description = description;
  if (ref !== undefined) param.ref = ref;
  if (typeof p.style === 'string') param.style = p.style;
  if (typeof p.explode === 'boolean') param.explode = p.explode;
  if (ctx.format === 'openapi2' && p.type === 'array') Object.assign(param, collectionStyle(p.collectionFormat));
  return param;
}

/**
 * Swagger 2.0 `collectionFormat` (default `csv`) as OpenAPI 3's style/explode, as the 3.0 migration maps
 * it; `tsv` has no 3.x style and keeps its own name (`tabDelimited`).
 */
function collectionStyle(format: unknown): Pick<SourceParameter, 'style' | 'explode'> {
  switch (format) {
    case 'multi':
      return { style: 'form', explode: true };
    case 'ssv':
      return { style: 'spaceDelimited', explode: false };
    case 'pipes':
      return { style: 'pipeDelimited', explode: false };
    case 'tsv':
      return { style: 'tabDelimited', explode: false };
    default:
      return { style: 'form', explode: false };
  }
}

function identity(p: SourceParameter): string {
  // Header names are case-insensitive (RFC 9110 §5.1).
  return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
}

/**
 * Path-item and operation parameters, merged. `broken` receives the pointer of each parameter whose `$ref`
 * does not resolve (reported by the loader): such a parameter is left out, see `placeholderPathParameters`.
 */
export function buildParameters(
  ctx: IrContext,
  levels: { list: unknown; pointer: string }[],
  broken: string[] = [],
): SourceParameter[] {
  const merged = new Map<string, SourceParameter>();
  for (const { list, pointer } of levels) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      ctx.report('invalid_parameter', 'warning', '`parameters` is not an array', pointer);
      continue;
    }
    list.forEach((raw, i) => {
      const param = buildParameter(ctx, raw, appendPointer(pointer, i), broken);
      if (param) merged.set(identity(param), param);
    });
  }
  return [...merged.values()];
}

/**
 * When a parameter `$ref` is broken, the `{name}`s of the path template it may have declared stay required
 * path parameters of unknown type (no schema), at the broken ref's pointer: the client must never send a
 * URL with `{name}` in it. A template variable that was simply never declared is left as before.
 */
export function placeholderPathParameters(
  path: string,
  params: readonly Parameter[],
  brokenPointer: string,
): Parameter[] {
  const declared = new Set(params.filter((p) => p.in === 'path').map((p) => p.name));
  const names = new Set([...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]).filter((n) => !declared.has(n)));
  return [...names].map((name) => ({ name, in: 'path', required: true, pointer: brokenPointer }));
}
