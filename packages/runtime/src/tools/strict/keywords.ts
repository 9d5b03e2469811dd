/**
 * What OpenAI strict mode accepts (the tools emitter and the runtime's strict converter share these tables).
 */

/**
 * OpenAI Structured Outputs, "Supported schemas" (platform.openai.com/docs/guides/structured-outputs#supported-schemas):
 * the string formats strict mode accepts. Any other `format` is removed.
 */
export const OPENAI_FORMATS = [
  'date',
  'date-time',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'time',
  'uuid',
] as const;

/**
 * The same page's per-type supported keywords plus the structural ones. Everything else is removed
 * (`minLength`, `maxLength`, `default`, `examples`, `uniqueItems`, …) or rewritten (`oneOf` → `anyOf`).
 */
export const OPENAI_KEYWORDS = [
  '$defs',
  '$ref',
  'additionalProperties',
  'anyOf',
  'const',
  'description',
  'enum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'format',
  'items',
  'maxItems',
  'maximum',
  'minItems',
  'minimum',
  'multipleOf',
  'pattern',
  'properties',
  'required',
  'type',
] as const;

/** OpenAI strict-mode size limits from the same page (current values; older docs said 100 / 5). */
export const OPENAI_LIMITS = {
  properties: 5000,
  depth: 10,
  enumValues: 1000,
  chars: 120_000,
  /** A string enum with more than this many values … */
  largeEnum: 250,
  /** … may have at most this many characters in total. */
  largeEnumChars: 15_000,
} as const;

/**
 * How a size-budget placeholder's description ends (emit/tools/budget.ts writes it): strict mode sends such an
 * object as JSON text, since it lists only some properties of an open object.
 */
export const PLACEHOLDER_TAIL = ': details omitted to keep this tool schema small; see the API documentation.)';
