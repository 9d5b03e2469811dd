/**
 * The one walk over an input folder: which files a run reads as specs. Discovery (which reports what it could
 * not read), the cache fingerprint and the young-generation sizing all use it, so the files fingerprinted
 * are the files loaded, and a folder they cannot walk (a symlink loop, an unreadable folder) is a diagnostic
 * for one of them and a crash for none.
 */
import { type Dirent, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';

export const SPEC_EXTENSIONS = /\.(json|ya?ml)$/i;

/** What the walk could not read: a folder, an entry it could not stat, a spec-named entry that is no file. */
export interface WalkProblem {
  path: string;
  /** The errno code, or `not_a_file`. */
  code: string;
  kind: 'directory' | 'entry' | 'not_a_file';
}

/** A folder or file name the walk never enters or reads: dot-names and `node_modules`. */
export function passedOver(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

function errnoCode(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? 'EIO';
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The .json/.yaml/.yml files under `dir` (absolute), in walk order (entries sorted by name, depth first).
 * Dot-folders, `node_modules` and the `skip` folders (absolute) are passed over; a folder reached twice
 * (through a symlink) is walked once. `problem` hears of what could not be read; the walk goes on.
 */
export function specFilesIn(
  dir: string,
  skip: ReadonlySet<string> = new Set(),
  problem: (p: WalkProblem) => void = () => {},
): string[] {
  const out: string[] = [];
  walk(dir, out, skip, new Set(), problem);
  return out;
}

function walk(
  dir: string,
  out: string[],
  skip: ReadonlySet<string>,
  seen: Set<string>,
  problem: (p: WalkProblem) => void,
): void {
  let real: string;
  let entries: Dirent[];
  try {
    real = realpathSync(dir);
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    problem({ path: dir, code: errnoCode(err), kind: 'directory' });
    return;
  }
  if (seen.has(real)) return;
  seen.add(real);
  for (const entry of entries.sort(byName)) {
    if (passedOver(entry.name)) continue;
    const abs = path.join(dir, entry.name);
    let info: Stats;
    try {
      info = statSync(abs);
    } catch (err) {
      if (SPEC_EXTENSIONS.test(entry.name) || entry.isSymbolicLink())
        problem({ path: abs, code: errnoCode(err), kind: 'entry' });
      continue;
    }
    if (info.isDirectory()) {
      if (!skip.has(abs)) walk(abs, out, skip, seen, problem);
    } else if (!SPEC_EXTENSIONS.test(entry.name)) continue;
    else if (info.isFile()) out.push(abs);
    else problem({ path: abs, code: 'not_a_file', kind: 'not_a_file' });
  }
}
