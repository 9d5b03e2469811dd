/**
 * Prints a client file from its declarations (structures.ts) into one CodeWriter, in the layout ts-morph's
 * structure printer gave it before (the goldens did not change when we dropped it,
 * docs/decisions/0119-the-client-is-printed-by-our-own-printer-not-ts-morph.md):
 * statements one per line, a blank line around the class and the factory and between class members and
 * type aliases, JSDoc as `/** x *\/` or one ` * ` line per line.
 */
import { tsString } from '../../escape/index.js';
import type { CodeWriter } from './code-writer.js';
import type {
  ClassDecl,
  FunctionDecl,
  ImportDecl,
  MethodDecl,
  ParameterDecl,
  PropertyDecl,
  SignatureDecl,
  WriterFunction,
} from './structures.js';

export interface ClientFileParts {
  /** Header comment lines (`// …`), already escaped for a line comment. */
  header: string;
  imports: ImportDecl[];
  /** Names re-exported with `export type { … }`; none: no statement. */
  typeExports: string[];
  /** `export type XClientOptions = …;` */
  optionsType: WriterFunction;
  /** `const ops = { … } as const satisfies …;`: the operation descriptions the methods pass to the engine. */
  operations: WriterFunction;
  cls: ClassDecl;
  factory: FunctionDecl;
  /** `export type PaymentsErrors = { "POST /charges": …; … };`: each operation's error bodies by status. */
  errorsMap: WriterFunction;
  /** `export type …` writers; each is preceded by a blank line. */
  types: WriterFunction[];
}

/**
 * A JSDoc block from text whose lines are already escaped for a comment, then a newline. `*\/` is re-checked,
 * as in doc-lines.ts `writeDocLines`: a line built by mistake from raw text still cannot end the block.
 */
function printDocs(w: CodeWriter, text: string): void {
  const lines = text.split(/\r?\n/).map((l) => l.replace(/\*\//g, '*\\/'));
  w.write('/**');
  if (lines.length <= 1) w.write(' ').write(lines[0]!);
  else {
    w.newLine();
    for (let i = lines[0]!.length === 0 ? 1 : 0; i < lines.length; i++) {
      w.write(lines[i]!.length > 0 ? ` * ${lines[i]}` : ' *');
      w.newLine();
    }
  }
  w.spaceIfLastNot().write('*/').newLine();
}

function parameterText(p: ParameterDecl): string {
  const init = p.initializer !== undefined ? ` = ${p.initializer}` : '';
  return `${p.name}${p.optional === true ? '?' : ''}: ${p.type}${init}`;
}

/** `name<T, U>(a: A, b?: B): R` */
function signatureText(s: SignatureDecl): string {
  const tps = s.typeParameters !== undefined && s.typeParameters.length > 0 ? `<${s.typeParameters.join(', ')}>` : '';
  return `${s.name}${tps}(${s.parameters.map(parameterText).join(', ')}): ${s.returnType}`;
}

/** `{`, the statements (one per line) or what `body` writes, one level deeper, `}`. */
function printBlock(w: CodeWriter, body: string[] | WriterFunction): void {
  w.write('{');
  w.indent(() => {
    if (typeof body === 'function') body(w);
    else
      body.forEach((s, i) => {
        if (i > 0) w.newLineIfLastNot();
        w.write(s);
      });
  });
  w.newLineIfLastNot().write('}');
}

function printProperty(w: CodeWriter, p: PropertyDecl): void {
  if (p.docs !== undefined) printDocs(w, p.docs);
  w.write(`${p.isReadonly === true ? 'readonly ' : ''}${p.name}: ${p.type};`);
}

/** Generated lines stay ≤ 200 characters: a longer signature or import lists its parts one per line. */
const MAX_LINE = 200;

function printMethod(w: CodeWriter, m: MethodDecl): void {
  printDocs(w, m.docs);
  const modifiers = `${m.isStatic === true ? 'static ' : ''}${m.isAsync === true ? 'async ' : ''}`;
  const line = `${modifiers}${signatureText(m)} `;
  if (line.length + 3 <= MAX_LINE || m.parameters.length === 0)
    w.write(line); // two of indent, then `{`
  else {
    const tps = m.typeParameters !== undefined && m.typeParameters.length > 0 ? `<${m.typeParameters.join(', ')}>` : '';
    w.write(`${modifiers}${m.name}${tps}(`).newLine();
    w.indent(() => {
      for (const p of m.parameters) w.writeLine(`${parameterText(p)},`);
    });
    w.write(`): ${m.returnType} `);
  }
  printBlock(w, m.statements);
}

function printClass(w: CodeWriter, c: ClassDecl): void {
  printDocs(w, c.docs);
  const tps = c.typeParameters !== undefined && c.typeParameters.length > 0 ? `<${c.typeParameters.join(', ')}>` : '';
  w.write(`export class ${c.name}${tps} {`);
  w.indent(() => {
    c.properties.forEach((p, i) => {
      if (i > 0) w.newLine();
      printProperty(w, p);
    });
    w.blankLine();
    w.write(`constructor(${c.ctor.parameters.map(parameterText).join(', ')}) `);
    printBlock(w, c.ctor.statements);
    for (const m of c.methods) {
      w.blankLine();
      printMethod(w, m);
    }
  });
  w.newLineIfLastNot().write('}');
}

function printImport(w: CodeWriter, i: ImportDecl): void {
  const type = i.isTypeOnly === true ? ' type' : '';
  const line = `import${type} { ${i.namedImports.join(', ')} } from ${tsString(i.moduleSpecifier)};`;
  if (line.length <= MAX_LINE) {
    w.write(line);
    return;
  }
  w.write(`import${type} {`).newLine();
  w.indent(() => {
    for (const n of i.namedImports) w.writeLine(`${n},`);
  });
  w.write(`} from ${tsString(i.moduleSpecifier)};`);
}

/** Prints the file into `w` (a writer given an `out` streams it; ending it is the caller's). */
export function printClientFile(parts: ClientFileParts, w: CodeWriter): void {
  w.write(parts.header);
  for (const i of parts.imports) {
    w.newLineIfLastNot();
    printImport(w, i);
  }
  if (parts.typeExports.length > 0) w.newLineIfLastNot().write(`export type { ${parts.typeExports.join(', ')} };`);
  w.newLineIfLastNot();
  parts.optionsType(w);
  w.blankLine();
  parts.operations(w);
  w.blankLine();
  printClass(w, parts.cls);
  w.blankLine();
  printDocs(w, parts.factory.docs);
  w.write(`export function ${signatureText(parts.factory)} `);
  printBlock(w, parts.factory.statements);
  w.blankLine();
  parts.errorsMap(w);
  for (const t of parts.types) {
    w.newLine();
    t(w);
  }
}
