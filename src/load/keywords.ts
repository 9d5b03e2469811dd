/**
 * Which keys of an OpenAPI document hold data and which hold user-chosen names: the bundler (load/bundle.ts)
 * and the schema normalizer (ir/schemas.ts) walk the same documents and must agree on both.
 */

/** Values that are data, not OpenAPI/JSON Schema structure: a `$ref` or `nullable` inside them is literal. */
export const LITERAL_KEYS: ReadonlySet<string> = new Set(['example', 'examples', 'default', 'enum', 'const']);

/** Maps whose keys are names of schemas: a property may be called `default`, `enum` or `x-id`. */
export const SCHEMA_NAME_MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'schemas',
  'dependentSchemas',
]);

/** OpenAPI maps whose keys are names (a response is called `default`); their `x-*` keys are extensions. */
export const OPENAPI_NAME_MAPS: ReadonlySet<string> = new Set([
  'paths',
  'webhooks',
  'callbacks',
  'responses',
  'parameters',
  'headers',
  'content',
  'encoding',
  'requestBodies',
  'securitySchemes',
  'links',
  'pathItems',
]);
