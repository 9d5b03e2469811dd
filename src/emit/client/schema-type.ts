/**
 * JSON Schema (the OpenAPI 3.1 form the IR gives every source, ir/schemas.ts) → TypeScript type text, written
 * straight into the file's CodeWriter so huge specs never build an intermediate AST per schema node.
 */
import type { CodeWriter } from './code-writer.js';
import type { JsonSchema } from '../../ir/types.js';
import { tsString } from '../../escape/index.js';
import {
  declaredTypes,
  enumLiterals,
  isObj,
  literal,
  precedenceOf,
  type Obj,
  type Precedence,
} from './schema-shape.js';
import { propertyKey } from './names.js';
import { writeDoc, writeDocLines } from './doc-lines.js';
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

function writeNonTrivial(w: CodeWriter, s: Obj, ctx: TypeWriterContext): void {
  const members = memberWriters(s, ctx);
  // `&` binds tighter than `|`: only a union member of an intersection needs parentheses (`A & (B | C)`),
  // and `X | null` (written from `type: [X, 'null']`) never does.
  const several = members.length > 1;
  members.forEach((m, i) => {
    if (i > 0) w.write(' & ');
    if (several && m.prec === 'union') w.write('(');
    m.write(w);
    if (several && m.prec === 'union') w.write(')');
  });
}

interface Member {
  prec: Precedence;
  write: (w: CodeWriter) => void;
}

/** The parts a schema is written as, joined with ` & `: its `$ref`, or its own type and each composition. */
function memberWriters(s: Obj, ctx: TypeWriterContext): Member[] {
  if (typeof s.$ref === 'string') {
    // Only annotations stand beside a `$ref` here (ir/schemas.ts); they are read by writeDoc.
    const name = ctx.registry.nameFor(s.$ref);
    return [{ prec: 'atom', write: (x) => x.write(name ?? 'unknown') }];
  }
  const members: Member[] = [];
  const base = baseWriter(s, ctx);
  if (base !== undefined) members.push(base);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = s[key];
    if (!Array.isArray(list) || list.length === 0) continue;
    const prec: Precedence = list.length === 1 ? 'atom' : key === 'allOf' ? 'intersection' : 'union';
    members.push({ prec, write: (x) => writeJoined(x, list as JsonSchema[], key === 'allOf' ? ' & ' : ' | ', ctx) });
  }
  return members.length > 0 ? members : [{ prec: 'atom', write: (x) => x.write('unknown') }];
}

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

/** The part of a schema that is not a composition: const, enum, or its `type`(s). */
function baseWriter(s: Obj, ctx: TypeWriterContext): Member | undefined {
  if ('const' in s) {
    const lit = literal(s.const);
    if (lit !== undefined) return { prec: 'atom', write: (w) => w.write(lit) };
  }
  if (Array.isArray(s.enum)) {
    const lits = enumLiterals(s.enum);
    if (lits.length > 0) return { prec: lits.length > 1 ? 'union' : 'atom', write: (w) => w.write(lits.join(' | ')) };
  }
  const types = declaredTypes(s);
  if (types.length === 0) return undefined;
  return {
    prec: types.length > 1 ? 'union' : 'atom',
    write: (w) =>
      types.forEach((t, i) => {
        if (i > 0) w.write(' | ');
        writePrimitive(w, t, s, ctx);
      }),
  };
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

/**
 * `export type Name = …;` with its JSDoc, written straight into the file's writer (the file puts a blank
 * line before each alias): the type is written once, at the indentation its object members need.
 */
export function typeAliasStatement(
  name: string,
  docLinesOf: string[],
  body: (w: CodeWriter) => void,
): (w: CodeWriter) => void {
  return (w) => {
    writeDocLines(w, docLinesOf);
    w.write(`export type ${name} = `);
    body(w);
    w.write(';').newLine();
  };
}

export { docInline, docLines } from './doc-lines.js';
