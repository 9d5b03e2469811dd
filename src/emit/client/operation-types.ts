/**
 * The request and response types of one HTTP operation: `XRequest` groups parameters by location
 * (`path`, `query`, `header`, `cookie`, `body`) so equal names in different locations never clash;
 * the response is the union of the success bodies, written in the method's signature when it is only a
 * name (`Charge`, `void`) and as an `XResponse` alias otherwise; the error bodies by status go straight
 * into the client's errors map (error-types.ts). The method's JSDoc names the operation, so the aliases
 * carry none of their own.
 */
import { CodeWriter } from './code-writer.js';
import type { HttpOperation, JsonSchema, Parameter } from '../../ir/types.js';
import type { Carrier } from '../../classify/types.js';
import { pickRequestContent, responseShape, type BodyEncoding, type ResponseShape } from '../media.js';
import { propertyKey, type NameTable, pascalCase } from './names.js';
import { jsonText } from '../../escape/index.js';
import { docLines, writeSchemaType, writeSchemaTypeWithout, type TypeWriterContext } from './schema-type.js';
import { typeAliasStatement, writeObjectType, type TypeMember } from './object-type.js';
import { errorTypes } from './error-types.js';
import { SharedTypes } from './shared-types.js';
import { bodyRequired } from '../body-required.js';
import { boundedMemo } from '../../objects.js';

type ParamGroup = 'path' | 'query' | 'header' | 'cookie';

/** Type text short enough to write in a signature: names (`Charge`, `void`, `string`), optionally `| undefined`/`| null`. */
const SIMPLE_TYPE = /^[A-Za-z_$][\w$]*( \| [A-Za-z_$][\w$]*)?$/;
const GROUPS: ParamGroup[] = ['path', 'query', 'header', 'cookie'];

export interface OperationTypes {
  requestName: string;
  /** The success type as the method writes it: a name (`Charge`, `void`, `Charge | undefined`) or the `XResponse` alias. */
  responseType: string;
  /** Status → body of the spec's error responses (the errors map's entry), or `Record<never, never>` when none is declared. */
  errors: string | ((w: CodeWriter) => void);
  /** Which request groups exist and whether any of them is required. */
  groups: ParamGroup[];
  body?: { encoding: BodyEncoding; required: boolean; mediaType?: string };
  requestRequired: boolean;
  response: ResponseShape;
  statements: ((w: CodeWriter) => void)[];
  /** The body type drops a nested key path with the runtime's `OmitKeyPath`. */
  omitsKeyPath: boolean;
}

interface BodySource {
  schema: JsonSchema | undefined;
  encoding: BodyEncoding;
  required: boolean;
  mediaType?: string;
}

/** The request body the client sends (the IR gives Swagger 2.0 `body`/`formData` the same form). */
function bodySource(op: HttpOperation, carrier: Carrier | null, root: unknown): BodySource | undefined {
  if (op.requestBody === undefined) return undefined;
  const picked = pickRequestContent(op.requestBody.content);
  if (picked === undefined) return undefined;
  return {
    schema: picked.media.schema,
    encoding: picked.encoding,
    required: bodyRequired(op.requestBody.required, picked.media.schema, carrier, root),
    mediaType: picked.media.mediaType,
  };
}

/** The key travels in the carrier the wrapper fills in (docs/concepts.md#carriers), so the caller does not pass it (nor its First-Sent). */
function isCarrierParam(p: Parameter, group: ParamGroup, carrier: Carrier | null): boolean {
  if (carrier === null || carrier.in !== group) return false;
  if (group !== 'header') return p.name === carrier.name;
  // The OASIS pair: the runtime sends Repeatability-First-Sent with the key (KeyCarrier.firstSent).
  return [carrier.name, carrier.firstSent].some((n) => n !== undefined && p.name.toLowerCase() === n.toLowerCase());
}

export function buildOperationTypes(
  op: HttpOperation,
  carrier: Carrier | null,
  names: NameTable,
  ctx: TypeWriterContext,
  shared: SharedTypes = new SharedTypes(),
): OperationTypes {
  const base = pascalCase(op.name);
  const requestName = names.claim(`${base}Request`);
  const groups: ParamGroup[] = [];
  const members: TypeMember[] = [];
  for (const g of GROUPS) {
    const params = groupParams(op, g, carrier);
    if (params === undefined) continue;
    groups.push(g);
    members.push({
      key: g,
      optional: !(g === 'path' || params.some((p) => p.required)),
      type: g === 'path' ? pathType(params, ctx, shared) : paramsType(params, ctx, shared, base),
    });
  }
  const body = bodySource(op, carrier, ctx.registry.root);
  const requestRequired = members.some((m) => !m.optional) || body?.required === true;
  const omitted = omittedPaths(carrier);
  const response = responseShape(op.responses);
  if (body !== undefined) members.push({ key: 'body', optional: !body.required, type: bodyWriter(body, omitted, ctx) });
  // The statements are kept until the file's end: each writer holds only what it prints.
  const statements = [typeAliasStatement(requestName, [], objectTypeWriter(members))];
  // A response that is only a name needs no alias of its own: the method's signature says it directly.
  const scratch = new CodeWriter();
  writeResponse(scratch, response, ctx);
  const text = scratch.toString();
  let responseType = text;
  if (!SIMPLE_TYPE.test(text)) {
    responseType = names.claim(`${base}Response`);
    statements.push(typeAliasStatement(responseType, [], textWriter(text)));
  }
  const bodyInfo = body && {
    encoding: body.encoding,
    required: body.required,
    ...(body.mediaType !== undefined ? { mediaType: body.mediaType } : {}),
  };
  const omitsKeyPath = omitted !== undefined && !isTopLevelOnly(omitted);
  return {
    requestName,
    responseType,
    errors: errorTypes(op, ctx, shared),
    groups,
    body: bodyInfo,
    requestRequired,
    response,
    statements,
    omitsKeyPath,
  };
}

/** The parameters of one location the caller passes (not the key's carrier), each name once; none: undefined. */
function groupParams(op: HttpOperation, g: ParamGroup, carrier: Carrier | null): Parameter[] | undefined {
  const seen = new Set<string>();
  const params = op.parameters.filter(
    (p) => p.in === g && !isCarrierParam(p, g, carrier) && !seen.has(p.name) && seen.add(p.name),
  );
  return params.length > 0 ? params : undefined;
}

const objectTypeWriter =
  (members: readonly TypeMember[]): ((w: CodeWriter) => void) =>
  (w) =>
    writeObjectType(w, members);

const textWriter =
  (text: string): ((w: CodeWriter) => void) =>
  (w) =>
    w.write(text);

const bodyWriter =
  (body: BodySource, omitted: string[][] | undefined, ctx: TypeWriterContext): ((w: CodeWriter) => void) =>
  (w) =>
    writeBody(w, body, omitted, ctx);

/**
 * A parameter description's doc lines, made once per text and shared by the members that show it (Graph's
 * OData options carry the same few descriptions on thousands of reads, and members live to the file's end).
 * Members only read their lines. Bounded, so a long-lived process does not keep every text it met.
 */
const paramDocs = boundedMemo(20_000, docLines);

function paramMember(p: Parameter, type: TypeMember['type']): TypeMember {
  return {
    key: propertyKey(p.name),
    optional: !(p.required || p.in === 'path'),
    ...(p.description !== undefined && p.description.trim() !== '' ? { docs: paramDocs(p.description) } : {}),
    type,
  };
}

/** Each parameter's type is rendered once and shared when another operation writes the same long text. */
function paramsType(
  params: Parameter[],
  ctx: TypeWriterContext,
  shared: SharedTypes,
  base: string,
): (w: CodeWriter) => void {
  const members = params.map((p): TypeMember => {
    const scratch = new CodeWriter();
    writeSchemaType(scratch, p.schema, ctx);
    return paramMember(p, shared.use(scratch.toString(), `${base}${pascalCase(p.name)}`));
  });
  return objectTypeWriter(members);
}

/** A path group (`UserIdPath`), shared by every operation under the same path parameters with the same docs. */
function pathType(params: Parameter[], ctx: TypeWriterContext, shared: SharedTypes): TypeMember['type'] {
  const scratch = new CodeWriter();
  writeObjectType(
    scratch,
    params.map((p) => paramMember(p, (w) => writeSchemaType(w, p.schema, ctx))),
  );
  return shared.use(scratch.toString(), `${pascalCase(params.map((p) => p.name).join('-'))}Path`, PATH_MIN_LENGTH);
}

/** A one-parameter path group with its doc (`{ /** key: id of user *\/ "user-id": string }`) is about 45 characters. */
const PATH_MIN_LENGTH = 40;

/** Body paths the client fills with the key (one per `oneOf` variant when they differ), so the caller omits them. */
function omittedPaths(carrier: Carrier | null): string[][] | undefined {
  if (carrier === null || (carrier.in !== 'body' && carrier.in !== 'form')) return undefined;
  const paths = carrier.variants?.map((v) => v.path) ?? [carrier.path];
  const unique = paths.filter((p, i) => paths.findIndex((q) => q.join('\u0000') === p.join('\u0000')) === i);
  return unique.length > 0 ? unique : undefined;
}

const isTopLevelOnly = (paths: string[][]): boolean => paths.length === 1 && paths[0].length === 1;

/**
 * A single top-level field is left out of the body type (`writeSchemaTypeWithout`); a nested or per-variant path with the
 * runtime's `OmitKeyPath`, which distributes over a `oneOf` union (plain `Omit` would collapse it).
 */
function writeBody(w: CodeWriter, body: BodySource, omitted: string[][] | undefined, ctx: TypeWriterContext): void {
  if (body.encoding === 'binary') {
    w.write('Blob | ArrayBuffer | Uint8Array'); // sent as raw bytes by the runtime (Buffer is a Uint8Array)
  } else if (body.encoding === 'text') {
    w.write('string');
  } else {
    if (omitted !== undefined && isTopLevelOnly(omitted)) writeSchemaTypeWithout(w, body.schema, omitted[0]![0]!, ctx);
    else if (omitted !== undefined) {
      for (let i = 0; i < omitted.length; i++) w.write('OmitKeyPath<');
      writeSchemaType(w, body.schema, ctx);
      for (const p of omitted) w.write(`, ${jsonText(p)}>`);
    } else writeSchemaType(w, body.schema, ctx);
  }
}

function writeResponse(w: CodeWriter, shape: ResponseShape, ctx: TypeWriterContext): void {
  if (shape.bodies.length === 0) {
    w.write('void');
    return;
  }
  // Members of a union need no parentheses (no function or conditional types are ever written).
  shape.bodies.forEach((b, i) => {
    if (i > 0) w.write(' | ');
    // The runtime's HTTP layer reads binary bodies as a Blob and text bodies as a string (`responseType`).
    if (b.parse === 'blob') w.write('Blob');
    else if (b.parse === 'text') w.write('string');
    else writeSchemaType(w, b.media.schema, ctx);
  });
  if (shape.hasEmpty) w.write(' | undefined');
}
