import type { SpecFormat, ToolFormat, ToolList } from './formats.js';

/** 1-based line and column of a position in a text source. */
export interface SourcePosition {
  line: number;
  col: number;
}

/** One recognised input (an OpenAPI document with its external refs bundled in, or a tool list). */
export type LoadedDoc = LoadedSpec | LoadedToolList;

/** An OpenAPI/Swagger document; `format` is decided once, here, from its `openapi`/`swagger` field. */
interface LoadedSpec extends LoadedBase {
  kind: 'openapi';
  format: SpecFormat;
}

/** A tool list: the list's format (of its first tool) and where the tools are, each with its own format. */
export interface LoadedToolList extends LoadedBase {
  kind: 'tools';
  format: ToolFormat;
  tools: ToolList;
}

interface LoadedBase {
  /** Path as given by the user (relative to cwd when inside it), POSIX separators. */
  file: string;
  /** Text syntax of the root file. */
  syntax: 'json' | 'yaml';
  /** The parsed (and, for OpenAPI, bundled) document. In-file `$ref`s are kept as written. */
  root: unknown;
  /**
   * Line/column of an RFC 6901 pointer in the root file; the nearest existing ancestor when the
   * pointer leads into content bundled from another file. `undefined` when nothing matches.
   */
  locate(pointer: string): SourcePosition | undefined;
  /** Other files bundled into `root` (display paths, sorted). */
  parts: string[];
}
