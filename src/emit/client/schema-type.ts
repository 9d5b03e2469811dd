/**
 * JSON Schema (the OpenAPI 3.1 form the IR gives every source, ir/schemas.ts) → TypeScript type text, written
 * straight into the file's CodeWriter so huge specs never build an intermediate AST per schema node.
 */
import type { CodeWriter } from './code-writer.js';
import type { JsonSchema } from '../../ir/types.js';
import { tsString } from '../../escape/index.js';
import { declaredTypes, enumLiterals, isObj, literal, precedenceOf, type Obj } from './schema-shape.js';
import { propertyKey } from './names.js';
import { writeDoc } from './doc-lines.js';
import type { TypeRegistry } from './type-registry.js';

export interface TypeWriterContext {
  registry: TypeRegistry;
  /** Schemas on the current path: YAML anchors can make real object cycles that `$ref`s never do. */
  stack: Set<object>;
}

/** Deep inline nesting beyond this prints `unknown`; real specs stay far below it. */
const MAX_DEPTH = 48;

export function writeSchemaType(w: CodeWriter, schema: JsonSchema | undefined, ctx: TypeWriterContext): void {
  if (schema === undefined || schema === true || !isObj(schema)) {
    w.write(schema === false ? 'never' : 'unknown');
    return;
  }
  if (ctx.stack.has(schema) || ctx.stack.size > MAX_DEPTH) {
    w.write('unknown');
    return;
  }
  ctx.stack.add(schema);
  try {
    writeNonTrivial(w, schema, ctx);
  } finally {
    ctx.stack.delete(schema);
  }
}

const COMPOSITIONS = ['allOf', 'oneOf', 'anyOf'] as const;

/**
 * The parts a schema is written as, joined with ` & `: its `$ref`, or its own type (const, enum or `type`s)
 * and each composition. Written straight out, no list of part writers: Graph writes millions of nodes.
 */
function writeNonTrivial(w: CodeWriter, s: Obj, ctx: TypeWriterContext): void {
  if (typeof s.$ref === 'string') {
    // Only annotations stand beside a `$ref` here (ir/schemas.ts); they are read by writeDoc.
    w.write(ctx.registry.nameFor(s.$ref) ?? 'unknown');
    return;
  }
  const base = baseOf(s);
  let parts = base !== undefined ? 1 : 0;
  for (const key of COMPOSITIONS) if (nonEmpty(s[key])) parts++;
  if (parts === 0) {
    w.write('unknown');
    return;
  }
  // `&` binds tighter than `|`: only a union member of an intersection needs parentheses (`A & (B | C)`),
  // and `X | null` (written from `type: [X, 'null']`) never does.
  const several = parts > 1;
  let first = true;
  if (base !== undefined) {
    first = false;
    const paren = several && isUnionBase(base);
    if (paren) w.write('(');
    writeBase(w, base, s, ctx);
    if (paren) w.write(')');
  }
  for (const key of COMPOSITIONS) {
    const list = s[key];
    if (!nonEmpty(list)) continue;
    if (!first) w.write(' & ');
    first = false;
    const paren = several && key !== 'allOf' && list.length > 1;
    if (paren) w.write('(');
    writeJoined(w, list as JsonSchema[], key === 'allOf' ? ' & ' : ' | ', ctx);
    if (paren) w.write(')');
  }
}

const nonEmpty = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;

/** Members of `allOf` need parentheses when they are unions; members of a union never do. */
function writeJoined(w: CodeWriter, list: JsonSchema[], sep: string, ctx: TypeWriterContext): void {
  list.forEach((item, i) => {
    if (i > 0) w.write(sep);
    const paren = sep === ' & ' && list.length > 1 && precedenceOf(item) === 'union';
    if (paren) w.write('(');
    writeSchemaType(w, item, ctx);
    if (paren) w.write(')');
  });
}

/** The part of a schema that is not a composition: a literal (const), literals (enum), or its `type`s. */
type Base = { literals: string } | { union: boolean; literals: string } | { types: string[] };

function baseOf(s: Obj): Base | undefined {
  if ('const' in s) {
    const lit = literal(s.const);
    if (lit !== undefined) return { literals: lit };
  }
  if (Array.isArray(s.enum)) {
    const lits = enumLiterals(s.enum);
    if (lits.length > 0) return { union: lits.length > 1, literals: lits.join(' | ') };
  }
  const types = declaredTypes(s);
  return types.length > 0 ? { types } : undefined;
}

function isUnionBase(b: Base): boolean {
  return 'types' in b ? b.types.length > 1 : 'union' in b && b.union;
}

function writeBase(w: CodeWriter, b: Base, s: Obj, ctx: TypeWriterContext): void {
  if (!('types' in b)) {
    w.write(b.literals);
    return;
  }
  b.types.forEach((t, i) => {
    if (i > 0) w.write(' | ');
    writePrimitive(w, t, s, ctx);
  });
}

function writePrimitive(w: CodeWriter, type: string, s: Obj, ctx: TypeWriterContext): void {
  switch (type) {
    case 'string':
      // `format: binary` is a file part (multipart) or a raw body; `Blob` is what fetch sends and returns.
      w.write(s.format === 'binary' ? 'Blob' : 'string');
      return;
    case 'integer':
    case 'number':
      w.write('number');
      return;
    case 'boolean':
      w.write('boolean');
      return;
    case 'null':
      w.write('null');
      return;
    case 'array':
      writeArray(w, s, ctx);
      return;
    case 'object':
      writeObject(w, s, ctx);
      return;
    default:
      w.write('unknown');
  }
}

function writeArray(w: CodeWriter, s: Obj, ctx: TypeWriterContext): void {
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
  if (tuple !== undefined) {
    w.write('[');
    (tuple as JsonSchema[]).forEach((item) => {
      writeSchemaType(w, item, ctx);
      w.write(', ');
    });
    w.write('...unknown[]]');
    return;
  }
  // `(A | B)[]`, `(A & B)[]`: an element that is not an atom is parenthesized.
  const items = s.items as JsonSchema | undefined;
  const paren = precedenceOf(items) !== 'atom';
  if (paren) w.write('(');
  writeSchemaType(w, items, ctx);
  if (paren) w.write(')');
  w.write('[]');
}

function writeObject(w: CodeWriter, s: Obj, ctx: TypeWriterContext, without?: string): void {
  const props = isObj(s.properties) ? s.properties : {};
  const keys = Object.keys(props).filter((k) => k !== without);
  const extra = s.additionalProperties;
  if (
    keys.length === 0 &&
    (extra === undefined || extra === true || (isObj(extra) && Object.keys(extra).length === 0))
  ) {
    w.write('{ [key: string]: unknown }');
    return;
  }
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  w.write('{').newLine();
  w.indent(() => {
    for (const key of keys) {
      const prop = props[key] as JsonSchema;
      writeDoc(w, prop);
      w.write(`${propertyKey(key)}${required.has(key) ? '' : '?'}: `);
      writeSchemaType(w, prop, ctx);
      w.write(';').newLine();
    }
    if (extra === false) return;
    if (keys.length > 0 && (extra !== undefined || isObj(s.patternProperties))) {
      // Declared properties must be assignable to the index signature, so it can only be `unknown` here.
      w.write('[key: string]: unknown;').newLine();
    } else if (keys.length === 0) {
      w.write('[key: string]: ');
      writeSchemaType(w, extra as JsonSchema, ctx);
      w.write(';').newLine();
    }
  });
  w.write('}');
}

/**
 * A body type without its top-level property `key` (the native key the client fills in): a plain inline
 * object is written without it; anything else (a named type, a composition) as `Omit<T, "key">`.
 */
export function writeSchemaTypeWithout(
  w: CodeWriter,
  schema: JsonSchema | undefined,
  key: string,
  ctx: TypeWriterContext,
): void {
  const plain =
    isObj(schema) &&
    typeof schema.$ref !== 'string' &&
    precedenceOf(schema) === 'atom' &&
    isObj(schema.properties) &&
    declaredTypes(schema).join() === 'object' &&
    !('const' in schema) &&
    !Array.isArray(schema.enum) &&
    !ctx.stack.has(schema);
  if (!plain) {
    w.write('Omit<');
    writeSchemaType(w, schema, ctx);
    w.write(`, ${tsString(key)}>`);
    return;
  }
  ctx.stack.add(schema);
  try {
    writeObject(w, schema, ctx, key);
  } finally {
    ctx.stack.delete(schema);
  }
}

export { docInline, docLines } from './doc-lines.js';
