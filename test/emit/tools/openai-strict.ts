/**
 * A checker for OpenAI's documented strict-mode rules (Structured Outputs, "Supported schemas",
 * https://platform.openai.com/docs/guides/structured-outputs#supported-schemas — also linked from the
 * function-calling guide's "Strict mode" section):
 * - the root is an object, not `anyOf`;
 * - every object sets `additionalProperties: false` and lists every property in `required`;
 * - only the supported keywords (string: pattern, format; number: multipleOf, maximum, exclusiveMaximum,
 *   minimum, exclusiveMinimum; array: minItems, maxItems; plus type/enum/const/anyOf/$ref/$defs/description);
 *   `allOf`, `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas` are not supported;
 * - `format` only: date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid;
 * - `$ref` only to definitions inside the schema (`#` root recursion or `#/$defs/...`);
 * - limits: 5,000 object properties, 10 levels of nesting, 1,000 enum values, 120,000 characters.
 * Function names: `^[a-zA-Z0-9_-]{1,64}$` (Chat Completions `function.name`).
 */
const ALLOWED = new Set([
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
]);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const TYPES = new Set(['string', 'number', 'boolean', 'integer', 'object', 'array', 'null']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export function checkStrictName(name: unknown): string[] {
  return typeof name === 'string' && /^[a-zA-Z0-9_-]{1,64}$/.test(name)
    ? []
    : [`invalid function name ${String(name)}`];
}

export function checkStrictSchema(root: unknown): string[] {
  const errors: string[] = [];
  if (!isObj(root) || root.type !== 'object' || root.anyOf !== undefined)
    errors.push('root must be an object schema, not anyOf');
  const defs = isObj(root) && isObj(root.$defs) ? root.$defs : {};
  const stats = { properties: 0, enumValues: 0, chars: 0 };
  let maxDepth = 0;
  const visit = (node: unknown, path: string, depth: number): void => {
    if (!isObj(node)) return void errors.push(`${path}: schema must be an object`);
    for (const key of Object.keys(node)) if (!ALLOWED.has(key)) errors.push(`${path}: unsupported keyword ${key}`);
    if (typeof node.$ref === 'string') {
      const ok = node.$ref === '#' || (node.$ref.startsWith('#/$defs/') && node.$ref.slice(8) in defs);
      if (!ok) errors.push(`${path}: $ref ${node.$ref} does not point into $defs`);
      if (Object.keys(node).length > 1) errors.push(`${path}: $ref with siblings`);
      return;
    }
    const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
    for (const t of types) if (!TYPES.has(t as string)) errors.push(`${path}: unsupported type ${String(t)}`);
    if (types.length === 0 && node.anyOf === undefined && node.enum === undefined && node.const === undefined) {
      errors.push(`${path}: schema without type, enum, const or anyOf`);
    }
    if (typeof node.format === 'string' && !FORMATS.has(node.format))
      errors.push(`${path}: unsupported format ${node.format}`);
    if (Array.isArray(node.enum)) {
      stats.enumValues += node.enum.length;
      stats.chars += node.enum.filter((v) => typeof v === 'string').join('').length;
    }
    if (types.includes('object') || node.properties !== undefined) {
      const depthHere = depth + 1;
      maxDepth = Math.max(maxDepth, depthHere);
      if (node.additionalProperties !== false) errors.push(`${path}: additionalProperties must be false`);
      const props = isObj(node.properties) ? node.properties : {};
      const names = Object.keys(props);
      stats.properties += names.length;
      stats.chars += names.join('').length;
      const required = Array.isArray(node.required) ? node.required : [];
      for (const n of names) if (!required.includes(n)) errors.push(`${path}: property ${n} missing from required`);
      for (const r of required)
        if (!names.includes(r as string)) errors.push(`${path}: required ${String(r)} is not a property`);
      for (const n of names) visit(props[n], `${path}/properties/${n}`, depthHere);
    }
    if (types.includes('array')) {
      if (node.items === undefined) errors.push(`${path}: array without items`);
      else visit(node.items, `${path}/items`, depth);
    }
    if (Array.isArray(node.anyOf)) for (const [i, b] of node.anyOf.entries()) visit(b, `${path}/anyOf/${i}`, depth);
  };
  if (isObj(root)) {
    const { $defs: _d, ...rest } = root;
    visit(rest, '', 0);
    for (const [name, def] of Object.entries(defs)) {
      stats.chars += name.length;
      visit(def, `/$defs/${name}`, 0);
    }
  }
  if (stats.properties > 5000) errors.push(`${stats.properties} properties exceed 5000`);
  if (maxDepth > 10) errors.push(`nesting ${maxDepth} exceeds 10`);
  if (stats.enumValues > 1000) errors.push(`${stats.enumValues} enum values exceed 1000`);
  if (stats.chars > 120_000) errors.push(`${stats.chars} characters exceed 120000`);
  return errors;
}
