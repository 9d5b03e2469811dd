/** Fills line/col of diagnostics from the loaded sources (a JSON pointer → a position in the text). */
import type { LoadedDoc } from '../load/types.js';
import type { Diagnostic } from './diagnostic.js';

export function locateDiagnostics(diagnostics: Diagnostic[], docs: LoadedDoc[]): Diagnostic[] {
  const byFile = new Map(docs.map((d) => [d.file, d]));
  return diagnostics.map((d) => {
    if (d.line !== undefined || d.file === undefined || d.pointer === undefined) return d;
    const pos = byFile.get(d.file)?.locate(d.pointer);
    return pos ? { ...d, line: pos.line, col: pos.col } : d;
  });
}
