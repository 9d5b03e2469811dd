/**
 * The declarations a client file is made of, as data: exactly the kinds the emitter builds (imports, a type
 * re-export, one class with properties, a constructor and methods, one function). `print.ts` prints them;
 * every name, type and statement in them is already code (spec text went through src/escape to get there).
 */
import type { CodeWriter } from './code-writer.js';

/** Writes a piece of code (a type, a body) into the file's writer. */
export type WriterFunction = (w: CodeWriter) => void;

export interface ParameterDecl {
  name: string;
  type: string;
  optional?: boolean;
  /** Default value (`{}`). */
  initializer?: string;
}

export interface SignatureDecl {
  name: string;
  /** JSDoc text, lines separated by `\n` (each already escaped for a comment). */
  docs: string;
  typeParameters?: string[];
  parameters: ParameterDecl[];
  returnType: string;
}

export interface MethodDecl extends SignatureDecl {
  isStatic?: boolean;
  isAsync?: boolean;
  /** The body: one statement per string, or written by a function. */
  statements: string[] | WriterFunction;
}

export interface PropertyDecl {
  name: string;
  type: string;
  isReadonly?: boolean;
  docs?: string;
}

export interface ClassDecl {
  name: string;
  docs: string;
  typeParameters?: string[];
  properties: PropertyDecl[];
  ctor: { parameters: ParameterDecl[]; statements: string[] };
  /** Made as they are printed (a generator): Graph's 11,422 methods are never all alive at once. */
  methods: Iterable<MethodDecl>;
}

/** An exported function. */
export interface FunctionDecl extends SignatureDecl {
  statements: string[];
}

export interface ImportDecl {
  moduleSpecifier: string;
  namedImports: string[];
  isTypeOnly?: boolean;
}
