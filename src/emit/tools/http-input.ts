/**
 * The tool input schema of an OpenAPI operation: path, query, non-auth header and cookie parameters as
 * top-level properties, the request body under one `body` property
 * (docs/decisions/0018-openapi-inputs-parameters-flat-body-under-body.md).
 */
import type { Carrier } from '../../classify/types.js';
import { bodyRequired } from '../body-required.js';
import { securitySchemesOf } from '../../ir/security-schemes.js';
import type { ApiModel, HttpOperation, JsonSchema, Parameter } from '../../ir/types.js';
import { pickRequestContent } from '../media.js';
import { createDefs, finishDefs, type DefsBuilder } from './defs.js';
import { KEY_PROPERTY } from './idempotency-key.js';
import { normalizeSchema } from './normalize.js';
import { dropKeyPath } from './drop-key-path.js';
import { pruneDefs } from '@idemgen/runtime/internal/tools/strict/strict-limits.js';

type Obj = Record<string, unknown>;

export interface BuiltInput {
  schema: Obj;
  unresolved: string[];
  /** HTTP operations: where each top-level property goes (the tool runtime routes flat arguments by it). */
  routes?: { property: string; in: 'path' | 'query' | 'header' | 'cookie'; name: string }[];
  /** HTTP operations: the property holding the request body, and the media type it was read from. */
  body?: { property: string; required: boolean; mediaType?: string };
}

/** OAS 3.x §4.8.12.1: header parameters named Accept, Content-Type or Authorization are ignored. */
const IGNORED_HEADERS = ['accept', 'authorization', 'content-type'];
const LOCATION_ORDER: Parameter['in'][] = ['path', 'query', 'header', 'cookie'];

/** Per document: `authParams`, read once (every operation of an API asks; the document is not edited while tools are built). */
const authByRoot = new WeakMap<object, ReadonlySet<string>>();

/** apiKey security schemes name the credentials the caller injects; the model must never be asked for them. */
function authParams(root: unknown): ReadonlySet<string> {
  if (typeof root !== 'object' || root === null) return readAuthParams(root);
  let auth = authByRoot.get(root);
  if (auth === undefined) {
    auth = readAuthParams(root);
    authByRoot.set(root, auth);
  }
  return auth;
}

function readAuthParams(root: unknown): Set<string> {
  const schemes = securitySchemesOf(root);
  const out = new Set<string>();
  for (const scheme of Object.values(schemes)) {
    const s = (scheme ?? {}) as Obj;
    if (s.type === 'apiKey' && typeof s.name === 'string' && typeof s.in === 'string') {
      out.add(`${s.in}:${s.in === 'header' ? s.name.toLowerCase() : s.name}`);
    }
  }
  return out;
}

function isExposed(p: Parameter, auth: ReadonlySet<string>, carrier: Carrier | null): boolean {
  const id = p.in === 'header' ? p.name.toLowerCase() : p.name;
  if (auth.has(`${p.in}:${id}`)) return false;
  if (p.in === 'header' && IGNORED_HEADERS.includes(id)) return false;
  // The native key travels in its own carrier; the tool exposes it once, as `idempotency_key`.
  if (
    carrier &&
    carrier.in === p.in &&
    (p.in === 'header' ? carrier.name.toLowerCase() === id : carrier.name === p.name)
  ) {
    return false;
  }
  return true;
}

/** First come keeps its name (path, query, header, cookie order); a later clash becomes `<in>_<name>`. */
function propertyName(p: Parameter, taken: Set<string>): string {
  let name = p.name;
  if (taken.has(name) || name === KEY_PROPERTY) name = `${p.in}_${p.name}`;
  for (let n = 2; taken.has(name); n += 1) name = `${p.in}_${p.name}_${n}`;
  taken.add(name);
  return name;
}

function withDescription(schema: JsonSchema, description: string | undefined): JsonSchema {
  if (description === undefined || typeof schema === 'boolean' || typeof schema.description === 'string') return schema;
  return { ...schema, description };
}

/** The request body (Swagger 2.0 `body`/`formData` included: the IR made them a `requestBody`). */
function bodySchema(
  op: HttpOperation,
  builder: DefsBuilder,
  carrier: Carrier | null,
  root: unknown,
): { schema: JsonSchema; required: boolean; mediaType: string } | undefined {
  if (!op.requestBody) return undefined;
  // The media type the client and the operation record send (emit/media.ts): one picker, one body.
  const picked = pickRequestContent(op.requestBody.content);
  if (!picked) return undefined;
  const { media, encoding } = picked;
  const raw = encoding === 'text' || encoding === 'binary';
  const schema = raw
    ? { type: 'string', description: `Raw request body (${media.mediaType}).` }
    : withDescription(normalizeSchema(media.schema ?? {}, builder), op.requestBody.description);
  const required = bodyRequired(op.requestBody.required, media.schema, carrier, root);
  const form = encoding === 'form' || encoding === 'multipart';
  return { schema: form ? nonEmptyRequired(schema) : schema, required, mediaType: media.mediaType };
}

/**
 * A form body has no spelling for an empty object (the runtime leaves `{}` out:
 * docs/decisions/0171-empty-arrays-in-a-form-body-are-sent-as-name.md), so a required object property that
 * requires nothing itself must hold at least one property, or the required field never reaches the API
 * (Stripe's `components` on `POST /v1/account_sessions`). Inline objects only, nested ones too; copy on write.
 */
export function nonEmptyRequired(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object') return schema;
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props === null || typeof props !== 'object' || !Array.isArray(schema.required)) return schema;
  let out: Record<string, unknown> | undefined;
  for (const name of schema.required as unknown[]) {
    if (typeof name !== 'string') continue;
    const prop = props[name];
    if (prop === undefined || typeof prop !== 'object' || prop.type !== 'object') continue;
    let next = nonEmptyRequired(prop) as Record<string, unknown>;
    const needs = !Array.isArray(next.required) || next.required.length === 0;
    if (needs && next.minProperties === undefined) next = { ...next, minProperties: 1 };
    if (next === prop) continue;
    out ??= { ...schema, properties: { ...props } };
    (out.properties as Record<string, JsonSchema>)[name] = next;
  }
  return out ?? schema;
}

function bodyName(taken: Set<string>): string {
  let name = 'body';
  for (let n = 2; taken.has(name); n += 1) name = `body_${n}`;
  return name;
}

/** Every body path the key is written to (one per `oneOf` variant when they differ). */
function dropCarrierFields(schema: Obj, name: string, carrier: Carrier): void {
  const props = schema.properties as Obj;
  const defs = (schema.$defs ?? {}) as Obj;
  let body = props[name];
  for (const v of carrier.variants ?? [{ path: carrier.path }]) body = dropKeyPath(body, v.path, defs);
  if (body === props[name]) return;
  props[name] = body;
  pruneDefs(schema);
}

/** The input schema before its `$defs` are normalized: the caller may finish them all or only what a budget keeps. */
export interface StartedInput {
  built: BuiltInput;
  builder: DefsBuilder;
  /** The body's own key field must be dropped (native key in the body), which needs every `$defs` entry. */
  dropsCarrier: boolean;
}

export function startHttpInput(op: HttpOperation, api: ApiModel, carrier: Carrier | null): StartedInput {
  const builder = createDefs(api.root);
  const auth = authParams(api.root);
  const properties: Obj = {};
  const required: string[] = [];
  const taken = new Set<string>();
  const params = op.parameters
    .filter((p) => isExposed(p, auth, carrier))
    .sort((a, b) => LOCATION_ORDER.indexOf(a.in) - LOCATION_ORDER.indexOf(b.in));
  const routes: NonNullable<BuiltInput['routes']> = [];
  for (const p of params) {
    const schema = withDescription(normalizeSchema(p.schema ?? { type: 'string' }, builder), p.description);
    const name = propertyName(p, taken);
    routes.push({ property: name, in: p.in, name: p.name });
    properties[name] = schema;
    if (p.required || p.in === 'path') required.push(name);
  }
  const body = bodySchema(op, builder, carrier, api.root);
  let bodyInfo: BuiltInput['body'];
  if (body) {
    const name = bodyName(taken);
    properties[name] = body.schema;
    if (body.required) required.push(name);
    bodyInfo = { property: name, required: body.required, mediaType: body.mediaType };
  }
  const schema: Obj = { type: 'object', properties, required, additionalProperties: false };
  const built: BuiltInput = { schema, unresolved: builder.unresolved, routes, ...(bodyInfo ? { body: bodyInfo } : {}) };
  return { built, builder, dropsCarrier: body !== undefined && (carrier?.in === 'body' || carrier?.in === 'form') };
}

/** Every reachable definition normalized into `$defs`, and a body-carried key dropped. */
export function finishHttpInput(started: StartedInput, carrier: Carrier | null): BuiltInput {
  const { built, builder } = started;
  const defs = finishDefs(builder, normalizeSchema);
  if (Object.keys(defs).length > 0) built.schema.$defs = defs;
  if (started.dropsCarrier && carrier !== null) dropCarrierFields(built.schema, built.body!.property, carrier);
  return built;
}
