/**
 * Raw views of an untrusted OpenAPI document, typed with `openapi-types`: the field names are the
 * documented ones of OpenAPI 2.0, 3.0 and 3.1 (so a misspelt field is a compile error), but every value
 * stays `unknown` until the code reading it has checked it. The library's own types would claim the
 * document is valid, which a spec from a vendor or a pull request is not (that is what `validate` is for).
 */
import type { OpenAPIV2, OpenAPIV3, OpenAPIV3_1 } from 'openapi-types';

/** The fields of `T`, each optional and unchecked, plus `x-*` extensions. */
type Raw<T> = { readonly [K in keyof T]?: unknown } & { readonly [extension: `x-${string}`]: unknown };

/** A document root of any supported version (Swagger 2.0 `host`/`consumes`, OpenAPI 3.1 `webhooks`, …). */
export type RawDocument = Raw<OpenAPIV2.Document> & Raw<OpenAPIV3.Document> & Raw<OpenAPIV3_1.Document>;

export type RawPathItem = Raw<OpenAPIV2.PathItemObject> &
  Raw<OpenAPIV3.PathItemObject> &
  Raw<OpenAPIV3_1.PathItemObject>;

export type RawOperation = Raw<OpenAPIV2.OperationObject> &
  Raw<OpenAPIV3.OperationObject> &
  Raw<OpenAPIV3_1.OperationObject>;
