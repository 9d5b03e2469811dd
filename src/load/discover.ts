/** Expands the user's inputs (files and directories) into the list of candidate files. */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { specFilesIn, type WalkProblem } from '../spec-files.js';

export interface Candidate {
  abs: string;
  display: string;
  /** Named by the user (vs found while scanning a directory). */
  explicit: boolean;
}

/** Path as shown to the user: relative to cwd when inside it, POSIX separators. */
export function displayPath(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  const shown = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : abs;
  return shown.split(path.sep).join('/');
}

function errnoCode(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? 'EIO';
}

/**
 * `skip`: folders a directory scan passes over (absolute paths): the run's output folder, whose tool files
 * would otherwise be read back as inputs by the next run over a folder that holds it (`idemgen generate .`).
 * A file named explicitly is read wherever it is.
 */
export async function discoverInputs(
  inputs: readonly string[],
  cwd: string,
  skip: readonly string[] = [],
): Promise<{ candidates: Candidate[]; diagnostics: Diagnostic[] }> {
  const skipped = new Set(skip.map((s) => path.resolve(s)));
  const out = new Map<string, Candidate>();
  const diagnostics: Diagnostic[] = [];
  for (const input of inputs) {
    const abs = path.resolve(cwd, input);
    const display = displayPath(abs, cwd);
    let info: Stats;
    try {
      info = await stat(abs);
    } catch (err) {
      const code = errnoCode(err);
      diagnostics.push(
        code === 'ENOENT' || code === 'ENOTDIR'
          ? diagnostic('input_not_found', 'error', `input not found: ${input}`, { file: display })
          : diagnostic('unreadable_file', 'error', `cannot read ${input} (${code})`, { file: display }),
      );
      continue;
    }
    if (info.isDirectory()) {
      const report = (p: WalkProblem): void => {
        diagnostics.push(walkDiagnostic(p, cwd));
      };
      for (const file of specFilesIn(abs, skipped, report))
        if (!out.has(file)) out.set(file, { abs: file, display: displayPath(file, cwd), explicit: false });
    } else if (info.isFile()) out.set(abs, { abs, display, explicit: true });
    else diagnostics.push(diagnostic('unreadable_file', 'error', `${input} is not a regular file`, { file: display }));
  }
  const candidates = [...out.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  return { candidates, diagnostics };
}

/** What the folder walk (spec-files.ts) could not read, as the user's diagnostic. */
function walkDiagnostic(p: WalkProblem, cwd: string): Diagnostic {
  const file = displayPath(p.path, cwd);
  const name = path.basename(p.path);
  const message =
    p.kind === 'directory'
      ? `cannot read directory (${p.code})`
      : p.kind === 'entry'
        ? `cannot read ${name} (${p.code})`
        : `${name} is not a regular file`;
  return diagnostic('unreadable_file', 'error', message, { file });
}
