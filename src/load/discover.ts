/** Expands the user's inputs (files and directories) into the list of candidate files. */
import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';

export interface Candidate {
  abs: string;
  display: string;
  /** Named by the user (vs found while scanning a directory). */
  explicit: boolean;
}

const SPEC_EXTENSIONS = /\.(json|ya?ml)$/i;

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
    if (info.isDirectory()) await scanDirectory(abs, cwd, out, diagnostics, new Set(), skipped);
    else if (info.isFile()) out.set(abs, { abs, display, explicit: true });
    else diagnostics.push(diagnostic('unreadable_file', 'error', `${input} is not a regular file`, { file: display }));
  }
  const candidates = [...out.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  return { candidates, diagnostics };
}

/** Recursive scan: .json/.yaml/.yml files; `node_modules`, dot-folders and `skip` skipped; symlink loops cut. */
async function scanDirectory(
  dir: string,
  cwd: string,
  out: Map<string, Candidate>,
  diagnostics: Diagnostic[],
  seen: Set<string>,
  skip: ReadonlySet<string>,
): Promise<void> {
  let real: string;
  let entries: Dirent[];
  try {
    real = await realpath(dir);
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    diagnostics.push(
      diagnostic('unreadable_file', 'error', `cannot read directory (${errnoCode(err)})`, {
        file: displayPath(dir, cwd),
      }),
    );
    return;
  }
  if (seen.has(real)) return;
  seen.add(real);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const abs = path.join(dir, entry.name);
    let info: Stats;
    try {
      info = await stat(abs);
    } catch (err) {
      if (SPEC_EXTENSIONS.test(entry.name) || entry.isSymbolicLink()) {
        diagnostics.push(
          diagnostic('unreadable_file', 'error', `cannot read ${entry.name} (${errnoCode(err)})`, {
            file: displayPath(abs, cwd),
          }),
        );
      }
      continue;
    }
    if (info.isDirectory()) {
      if (!skip.has(abs)) await scanDirectory(abs, cwd, out, diagnostics, seen, skip);
    } else if (!SPEC_EXTENSIONS.test(entry.name) || out.has(abs)) continue;
    else if (info.isFile()) out.set(abs, { abs, display: displayPath(abs, cwd), explicit: false });
    else
      diagnostics.push(
        diagnostic('unreadable_file', 'error', `${entry.name} is not a regular file`, { file: displayPath(abs, cwd) }),
      );
  }
}
