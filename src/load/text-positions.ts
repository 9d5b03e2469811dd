/**
 * Line and column for diagnostics about a JSON or YAML file that is not a loaded spec (the config file), with
 * the loader's own locator: a problem is printed at the line where it is written, like a problem in a spec. A
 * file that does not parse gets its diagnostics placed at the syntax error. Other files, and diagnostics about
 * other files, pass through as they are.
 */
import { readFileSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { locateDiagnostics, type LocatableDoc } from '../diagnostics/locate.js';
import { makeSource } from './source.js';

const TEXT_FILE = /\.(json|ya?ml)$/i;

export function locateInTextFiles(diagnostics: Diagnostic[], files: Iterable<string | undefined>): Diagnostic[] {
  const docs: LocatableDoc[] = [];
  const named = new Set(diagnostics.map((d) => d.file));
  for (const file of new Set(files)) {
    // Read only a file some diagnostic is about (none, most runs: nothing is read).
    if (file === undefined || !named.has(file) || !TEXT_FILE.test(file)) continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const source = makeSource(file, file, text);
    docs.push({ file, locate: source.parsed?.ok === false ? () => source.errorAt : source.locate });
  }
  return docs.length === 0 ? diagnostics : locateDiagnostics(diagnostics, docs);
}
