/**
 * JSON Schema (OpenAPI 2 / 3.0 / 3.1 dialects) → TypeScript type text, written straight into ts-morph's
 * CodeBlockWriter so huge specs never build an intermediate AST per schema node.
 */
import type { CodeBlockWriter } from 'ts-morph';
import type { JsonSchema } from '../../ir/types.js';
import { tsNumber, tsString } from '../../escape/index.js';
import { propertyKey } from './names.js';
import { writeDoc, writeDocLines } from './doc-lines.js';
import type { TypeRegistry } from './type-registry.js';

type Obj = Record<string, unknown>;

export interface TypeWriterContext {
  registry: TypeRegistry;
  /** Schemas on the current path: YAML anchors can make real object cycles that `$ref`s never do. */
  stack: Set<object>;
}

/** Deep inline nesting beyond this prints `unknown`; real specs stay far below it. */
const MAX_DEPTH = 48;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export function writeSchemaType(w: CodeBlockWriter, schema: JsonSchema | undefined, ctx: TypeWriterContext): void {
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

function isNullable(s: Obj): boolean {
  // `nullable` is OpenAPI 3.0; `x-nullable` is the common Swagger 2 extension.
  return s.nullable === true || s['x-nullable'] === true;
}

function writeNonTrivial(w: CodeBlockWriter, s: Obj, ctx: TypeWriterContext): void {
  const members: ((w: CodeBlockWriter) => void)[] = [];
  if (typeof s.$ref === 'string') {
    // OpenAPI 3.0 ignores `$ref` siblings; nullable is honoured because generators commonly emit it there.
    const name = ctx.registry.nameFor(s.$ref);
    members.push((x) => x.write(name ?? 'unknown'));
  } else {
    const base = baseWriter(s, ctx);
    if (base !== undefined) members.push(base);
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const list = s[key];
      if (!Array.isArray(list) || list.length === 0) continue;
      const sep = key === 'allOf' ? ' & ' : ' | ';
      members.push((x) => writeJoined(x, list as JsonSchema[], sep, ctx));
    }
  }
  if (members.length === 0) members.push((x) => x.write('unknown'));
  const nullable = isNullable(s) && !hasNullAlready(s);
  const wrap = members.length > 1 || nullable;
  members.forEach((m, i) => {
    if (i > 0) w.write(' & ');
    if (wrap) w.write('(');
    m(w);
    if (wrap) w.write(')');
  });
  if (nullable) w.write(' | null');
}

function hasNullAlready(s: Obj): boolean {
  return (Array.isArray(s.enum) && s.enum.includes(null)) || (Array.isArray(s.type) && s.type.includes('null'));
}

function writeJoined(w: CodeBlockWriter, list: JsonSchema[], sep: string, ctx: TypeWriterContext): void {
  list.forEach((item, i) => {
    if (i > 0) w.write(sep);
    writeOperand(w, item, ctx);
  });
}

/** Writes a schema where a union/intersection must be parenthesized (array element, composition member). */
function writeOperand(w: CodeBlockWriter, schema: JsonSchema | undefined, ctx: TypeWriterContext): void {
  const atomic = isObj(schema) ? isAtomic(schema) : true;
  if (!atomic) w.write('(');
  writeSchemaType(w, schema, ctx);
  if (!atomic) w.write(')');
}

function isAtomic(s: Obj): boolean {
  if (isNullable(s)) return false;
  if (typeof s.$ref === 'string') return true;
  if (s.allOf !== undefined || s.oneOf !== undefined || s.anyOf !== undefined) return false;
  if (Array.isArray(s.enum) && s.enum.length !== 1) return false;
  return !Array.isArray(s.type);
}

function literal(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return tsString(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return tsNumber(value);
  return undefined;
}

/** The part of a schema that is not a composition: const, enum, or its `type`(s). */
function baseWriter(s: Obj, ctx: TypeWriterContext): ((w: CodeBlockWriter) => void) | undefined {
  if ('const' in s) {
    const lit = literal(s.const);
    if (lit !== undefined) return (w) => w.write(lit);
  }
  if (Array.isArray(s.enum)) {
    const lits = [...new Set(s.enum.map(literal).filter((l): l is string => l !== undefined))];
    if (lits.length > 0) return (w) => w.write(lits.join(' | '));
  }
  const types = declaredTypes(s);
  if (types.length === 0) return undefined;
  return (w) =>
    types.forEach((t, i) => {
      if (i > 0) w.write(' | ');
      writePrimitive(w, t, s, ctx);
    });
}

function declaredTypes(s: Obj): string[] {
  const t = s.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return [...new Set(t.filter((x): x is string => typeof x === 'string'))];
  const composed = s.allOf !== undefined || s.oneOf !== undefined || s.anyOf !== undefined;
  if (isObj(s.properties) || (s.additionalProperties !== undefined && !composed)) return ['object'];
  if (s.items !== undefined || Array.isArray(s.prefixItems)) return ['array'];
  return [];
}

function writePrimitive(w: CodeBlockWriter, type: string, s: Obj, ctx: TypeWriterContext): void {
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
    case 'file':
      w.write('Blob'); // Swagger 2 `type: file` (formData upload, file responses)
      return;
    default:
      w.write('unknown');
  }
}

function writeArray(w: CodeBlockWriter, s: Obj, ctx: TypeWriterContext): void {
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
  writeOperand(w, s.items as JsonSchema | undefined, ctx);
  w.write('[]');
}

function writeObject(w: CodeBlockWriter, s: Obj, ctx: TypeWriterContext): void {
  const props = isObj(s.properties) ? s.properties : {};
  const keys = Object.keys(props);
  const extra = s.additionalProperties;
  if (keys.length === 0 && (extra === undefined || extra === true || (isObj(extra) && Object.keys(extra).length === 0))) {
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
 * `export type Name = …;` written into its own writer (the file joins the aliases with blank lines). ts-morph's TypeAlias structure
 * prints its type into a scratch writer and re-writes that text with hanging indentation (one level too deep
 * for object types, and a second pass over every character of Graph-sized specs), so aliases go this way.
 */
export function typeAliasStatement(name: string, docLinesOf: string[], body: (w: CodeBlockWriter) => void): (w: CodeBlockWriter) => void {
  return (w) => {
    writeDocLines(w, docLinesOf);
    w.write(`export type ${name} = `);
    body(w);
    w.write(';').newLine();
  };
}

export { docInline, docLines, writeDocLines } from './doc-lines.js';
