/**
 * What idemgen's caches are keyed by and where they live, below the CLI and `serve` (both use it): the
 * fingerprint of a run's inputs — every input file, the config file, the resolved config and idemgen's own
 * code — and the cache folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, type Stats, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedConfig } from '../config/types.js';
import { specFilesIn } from '../load/spec-files.js';
import { PACKAGE_ROOT } from '../package-files.js';

/** Every file under `dir`, relative to it with `/` separators, sorted. */
export function listFiles(dir: string, base = ''): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/**
 * The files a run over `inputs` reads: a file as given, a folder's spec files as discovery finds them
 * (load/spec-files.ts: dot folders, node_modules and the `skip` folders, such as the output folder, passed
 * over; symlink loops cut). What cannot be read is left out here: loading reports it.
 */
export function inputFiles(inputs: readonly string[], skip: readonly string[] = []): string[] {
  const files: string[] = [];
  const skipped = new Set(skip.map((s) => resolve(s)));
  for (const input of inputs) {
    const st = statOrUndefined(input);
    if (st?.isFile()) files.push(input);
    else if (st?.isDirectory()) files.push(...specFilesIn(resolve(input), skipped));
  }
  return files;
}

/** A file's bytes, or a marker when it cannot be read (loading reports why; the run is then never cached). */
function readOrMark(file: string): Buffer | string {
  try {
    return readFileSync(file);
  } catch (err) {
    return `\0unreadable:${(err as NodeJS.ErrnoException).code ?? 'EIO'}`;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** idemgen's own code: the compiled files and templates next to this module (size + mtime is enough). */
function codeFingerprint(hash: ReturnType<typeof createHash>): void {
  const root = fileURLToPath(PACKAGE_ROOT);
  for (const dir of ['dist', 'src', 'templates']) {
    for (const rel of listFiles(join(root, dir))) {
      const st = statSync(join(root, dir, rel));
      hash.update(`${dir}/${rel}:${st.size}:${st.mtimeMs}\n`);
    }
  }
}

export function fingerprintInputs(inputs: string[], config: ResolvedConfig, outDir: string): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ ...config, inputs, out: outDir }));
  if (config.configFile && existsSync(config.configFile)) hash.update(readFileSync(config.configFile));
  for (const file of inputFiles(inputs, [outDir])) {
    hash.update(`\0${file}\0`);
    hash.update(readOrMark(file));
  }
  codeFingerprint(hash);
  return hash.digest('hex');
}

/** The folder of idemgen's caches (generate's input cache, serve's analysis cache). */
export const cacheDir = (cwd: string): string => join(cwd, 'node_modules', '.cache', 'idemgen');
