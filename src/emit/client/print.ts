/**
 * Printing a client file from its structures with ts-morph's `printStructure`, in pieces. A CodeBlockWriter
 * keeps every write as its own string until `toString()`, so one writer for a whole Graph client (26 MB of
 * text) held millions of small strings at once: the run's peak memory. The file is printed as its frame
 * (header, imports, helpers, the class without its methods, the factory), the methods in batches, and one
 * writer per type alias; the pieces are joined once. The text is the same as printing it in one writer
 * (`Project.createSourceFile` would print that text too, then parse it into an AST we never read).
 */
import type {
  ClassDeclarationStructure,
  MethodDeclarationStructure,
  OptionalKind,
  StatementStructures,
  WriterFunction,
} from 'ts-morph';
import { CodeBlockWriter, printStructure, StructureKind } from './ts-morph.js';

const PRINT_OPTIONS = { indentNumberOfSpaces: 2, newLine: '\n', useSingleQuote: false } as const;
/** Methods per scratch class: large enough to amortize the printer set-up, small enough to stay cheap. */
const METHOD_BATCH = 200;

export interface ClientFileParts {
  /** Header comment, imports, helper declarations. */
  head: (string | StatementStructures | WriterFunction)[];
  cls: ClassDeclarationStructure;
  tail: (StatementStructures | WriterFunction)[];
  /** `export type …` writers; each is preceded by a blank line. */
  types: WriterFunction[];
}

/** Members of a scratch class printed at class-member indentation, without the `class X {` / `}` lines. */
function printMembers(methods: OptionalKind<MethodDeclarationStructure>[]): string {
  const text = printStructure({ kind: StructureKind.Class, name: 'Batch', methods }, PRINT_OPTIONS);
  return text.slice(text.indexOf('\n') + 1, text.lastIndexOf('}'));
}

function printTypeAlias(statement: WriterFunction): string {
  const w = new CodeBlockWriter(PRINT_OPTIONS);
  statement(w);
  return `\n${w.toString()}`;
}

export function printClientFile(parts: ClientFileParts): string {
  const methods = parts.cls.methods ?? [];
  const frame = printStructure(
    { kind: StructureKind.SourceFile, statements: [...parts.head, { ...parts.cls, methods: [] }, ...parts.tail] },
    PRINT_OPTIONS,
  );
  // The class body ends at the first line that is a lone `}` after `class Name`; members are blank-line separated.
  const classAt = frame.indexOf(`class ${parts.cls.name} `);
  const end = frame.indexOf('\n}\n', classAt) + 1;
  const out: string[] = [frame.slice(0, end)];
  for (let i = 0; i < methods.length; i += METHOD_BATCH)
    out.push('\n', printMembers(methods.slice(i, i + METHOD_BATCH)));
  out.push(frame.slice(end));
  for (const t of parts.types) out.push(printTypeAlias(t));
  return out.join('');
}
