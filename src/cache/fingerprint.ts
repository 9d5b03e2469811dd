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
import { BROKEN_REF_CODES } from '../diagnostics/codes.js';
import { specFilesIn } from '../spec-files.js';
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
 * (src/spec-files.ts: dot folders, node_modules and the `skip` folders, such as the output folder, passed
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

/**
 * Input problems after which a run is not remembered by either cache: a broken ref's target may appear or be
 * fixed anywhere (also outside the input folders), and only a run that reads it again can tell.
 */
const UNCACHEABLE_CODES: ReadonlySet<string> = new Set([...BROKEN_REF_CODES, 'unreadable_file']);

/** Whether a run with these input diagnostics may be remembered (none of UNCACHEABLE_CODES among them). */
export const cacheable = (diagnostics: readonly { code: string }[]): boolean =>
  !diagnostics.some((d) => UNCACHEABLE_CODES.has(d.code));

const sha = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The sha256 of a file's bytes, or the marker readOrMark gives for a file it cannot read. */
function hashOrMissing(file: string): string {
  const bytes = readOrMark(file);
  return typeof bytes === 'string' ? bytes : sha(bytes);
}

/**
 * The files external `$ref`s bundled into `docs` (display paths, relative to `cwd` when inside it), each with
 * the sha256 of its bytes: kept beside a cache entry because such a file may sit outside the input folders,
 * where the fingerprint does not look.
 */
export function hashBundledParts(docs: readonly { parts: readonly string[] }[], cwd: string): Record<string, string> {
  const paths = new Set(docs.flatMap((d) => d.parts.map((p) => resolve(cwd, p))));
  return Object.fromEntries([...paths].sort().map((p) => [p, hashOrMissing(p)]));
}

/** Whether every bundled file still has the bytes `parts` recorded (hashBundledParts). */
export function bundledPartsUnchanged(parts: Readonly<Record<string, string>>): boolean {
  return Object.entries(parts).every(([part, hash]) => hashOrMissing(part) === hash);
}

/** The folder of idemgen's caches (generate's input cache, serve's analysis cache). */
export const cacheDir = (cwd: string): string => join(cwd, 'node_modules', '.cache', 'idemgen');
