/**
 * What idemgen's caches are keyed by and where they live, below the CLI and `serve` (both use it): the
 * fingerprint of a run's inputs — every input file, the config file, the resolved config and idemgen's own
 * code — and the cache folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedConfig } from '../config/types.js';
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

const SPEC_FILE = /\.(json|ya?ml)$/i;

/** `skip`: folders passed over below an input (an input itself is read as named, like discover.ts does). */
function walk(path: string, out: string[], skip: ReadonlySet<string>, input = true): void {
  if (!existsSync(path) || (!input && skip.has(resolve(path)))) return;
  const st = statSync(path);
  if (st.isFile()) {
    out.push(path);
    return;
  }
  if (!st.isDirectory()) return;
  for (const entry of readdirSync(path).sort()) {
    if (entry.startsWith('.') || entry === 'node_modules') continue;
    const child = join(path, entry);
    if (statSync(child, { throwIfNoEntry: false })?.isDirectory()) walk(child, out, skip, false);
    else if (SPEC_FILE.test(entry)) out.push(child);
  }
}

/**
 * The files a run over `inputs` reads: a file as given, a folder's .json/.yaml files (dot folders,
 * node_modules and the `skip` folders, such as the output folder, skipped).
 */
export function inputFiles(inputs: readonly string[], skip: readonly string[] = []): string[] {
  const files: string[] = [];
  const skipped = new Set(skip.map((s) => resolve(s)));
  for (const input of inputs) walk(input, files, skipped);
  return files;
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
    hash.update(readFileSync(file));
  }
  codeFingerprint(hash);
  return hash.digest('hex');
}

/** The folder of idemgen's caches (generate's input cache, serve's analysis cache). */
export const cacheDir = (cwd: string): string => join(cwd, 'node_modules', '.cache', 'idemgen');
