/**
 * JSON Schema 2020-12 keyword tables used to normalize OpenAPI / draft-07 schemas into the dialect
 * MCP 2025-11-25 assumes when `$schema` is absent (SEP-1613), and to drop everything else
 * (vendor extensions, OpenAPI-only annotations) so the output compiles under Ajv's strict mode.
 */

/** Keywords whose value is one subschema. */
export const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;

/** Keywords whose value is an array of subschemas. */
export const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

/** Keywords whose value is a map name → subschema. */
export const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas'] as const;

/** Keywords whose value must be a non-negative integer (2020-12 validation vocabulary). */
export const COUNT_KEYWORDS = [
  'maxContains',
  'maxItems',
  'maxLength',
  'maxProperties',
  'minContains',
  'minItems',
  'minLength',
  'minProperties',
] as const;

/** Keywords whose value must be a number. */
export const NUMBER_KEYWORDS = ['exclusiveMaximum', 'exclusiveMinimum', 'maximum', 'minimum', 'multipleOf'] as const;

/** Keywords whose value must be a string. */
export const STRING_KEYWORDS = [
  '$comment',
  'contentEncoding',
  'contentMediaType',
  'description',
  'format',
  'pattern',
  'title',
] as const;

/** Keywords whose value must be a boolean. */
export const BOOLEAN_KEYWORDS = ['deprecated', 'readOnly', 'uniqueItems', 'writeOnly'] as const;

/** Keywords carrying instance values (copied verbatim, never walked as schemas). */
export const VALUE_KEYWORDS = ['const', 'default'] as const;

export const JSON_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] as const;
