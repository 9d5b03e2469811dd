/**
 * The operation IR: what every later stage reads. Built by `buildApiModel` from a LoadedDoc.
 * Schemas stay as JSON (with internal `$ref`s such as `#/components/schemas/Pet`) and are
 * resolved against `ApiModel.root` when needed — specs are circular (Stripe), so never dereferenced.
 * Whatever the source version, schemas are in the OpenAPI 3.1 form (ir/schemas.ts: no `nullable`) and a
 * request body is a `RequestBody` (ir/bodies.ts): later stages never look at the spec version.
 */
export type JsonSchema = Record<string, unknown> | boolean;

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
export const HTTP_METHODS: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];

import type { SpecFormat, ToolFormat } from '../load/formats.js';

export type { SpecFormat, ToolFormat } from '../load/formats.js';

export interface SourceRef {
  /** Path as given by the user (relative to cwd when possible), POSIX separators. */
  file: string;
  /** RFC 6901 pointer of the operation (`/paths/~1v1~1charges/post`) or tool (`/tools/3`). */
  pointer: string;
}

/** Swagger 2.0 `body`/`formData` parameters are not parameters here: they become the `requestBody`. */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface Parameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema?: JsonSchema;
  description?: string;
  /** Pointer of the parameter object after following a `$ref` to components/parameters. */
  pointer: string;
  /** The `$ref` it was declared through, if any. */
  ref?: string;
  style?: string;
  explode?: boolean;
}

export interface MediaContent {
  mediaType: string;
  schema?: JsonSchema;
  /** The object holding `schema`: a Media Type Object, or a Swagger 2.0 `body` parameter (`<pointer>/schema`). */
  pointer: string;
  /**
   * Top-level fields declared outside `schema` (Swagger 2.0 `formData` parameters, gathered into one object
   * schema): field name → the pointer of its declaration, so findings point at the parameter.
   */
  fieldPointers?: Record<string, string>;
}

/** One model for OpenAPI 3.x `requestBody` and Swagger 2.0 `body`/`formData` parameters (ir/bodies.ts). */
export interface RequestBody {
  required: boolean;
  description?: string;
  content: MediaContent[];
  pointer: string;
}

export interface ResponseSpec {
  /** `200`, `2XX`, `default`. */
  status: string;
  description?: string;
  content: MediaContent[];
  headers: string[];
  pointer: string;
}

interface OperationBase {
  /** Stable key: `POST /v1/charges` or `tool:send_email`. Unique within one ApiModel. */
  key: string;
  /** A safe TypeScript identifier, unique within one ApiModel (camelCase for HTTP, tool name sanitized for tools). */
  name: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** Every `x-*` key on the operation (and, for tools, on the tool object). */
  extensions: Record<string, unknown>;
  source: SourceRef;
}

export interface HttpOperation extends OperationBase {
  kind: 'http';
  method: HttpMethod;
  /** Exactly as the key in `paths`. */
  path: string;
  operationId?: string;
  tags: string[];
  parameters: Parameter[];
  requestBody?: RequestBody;
  responses: ResponseSpec[];
  /** Effective server URLs (operation > path > document; Swagger 2: scheme://host+basePath). */
  servers: string[];
  security?: Record<string, string[]>[];
  /** Path-item level `x-*` extensions (the operation's own are in `extensions`). */
  pathExtensions: Record<string, unknown>;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [extra: string]: unknown;
}

export interface ToolOperation extends OperationBase {
  kind: 'tool';
  toolName: string;
  title?: string;
  format: ToolFormat;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** `undefined` when the tool declares none (MCP defaults then apply: not read-only, destructive). */
  annotations?: ToolAnnotations;
  /** OpenAI `strict` flag as given. */
  strict?: boolean;
}

export type Operation = HttpOperation | ToolOperation;

/** A webhook or callback: listed, never a client operation. */
export interface EventOperation {
  kind: 'webhook' | 'callback';
  key: string;
  method: HttpMethod;
  name: string;
  source: SourceRef;
}

export interface ApiModel {
  /** From the input file name (`payments.openapi.yaml` → `payments`), safe as a file name. */
  id: string;
  file: string;
  format: SpecFormat | ToolFormat;
  title?: string;
  version?: string;
  servers: string[];
  /** Sorted by key. */
  operations: Operation[];
  events: EventOperation[];
  /**
   * The bundled document with its schemas in the 3.1 form (OpenAPI; ir/schemas.ts) or the raw tool file,
   * for `$ref` resolution by emitters.
   */
  root: unknown;
}
