/** Fills line/col of diagnostics from the loaded sources (a JSON pointer → a position in the text). */
import type { Diagnostic } from './diagnostic.js';

/**
 * What this needs of a loaded document (a `LoadedDoc` is one). Declared here, structurally, so diagnostics
 * stays below the loader instead of importing it.
 */
export interface LocatableDoc {
  file: string;
  locate(pointer: string): { line: number; col: number } | undefined;
}

export function locateDiagnostics(diagnostics: Diagnostic[], docs: readonly LocatableDoc[]): Diagnostic[] {
  const byFile = new Map(docs.map((d) => [d.file, d]));
  return diagnostics.map((d) => {
    if (d.line !== undefined || d.file === undefined || d.pointer === undefined) return d;
    const pos = byFile.get(d.file)?.locate(d.pointer);
    return pos ? { ...d, line: pos.line, col: pos.col } : d;
  });
}
