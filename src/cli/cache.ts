/**
 * Input cache: an unchanged re-run of `generate` does no work. The fingerprint covers every input file,
 * the config file, the options that shape output and idemgen's own code, so any change invalidates it;
 * the recorded output hashes are re-checked so a hand-edited output folder is regenerated.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedConfig } from '../config/types.js';
import { listFiles } from './output-dir.js';

const SPEC_FILE = /\.(json|ya?ml)$/i;

function walk(path: string, out: string[]): void {
  if (!existsSync(path)) return;
  const st = statSync(path);
  if (st.isFile()) {
    out.push(path);
    return;
  }
  if (!st.isDirectory()) return;
  for (const entry of readdirSync(path).sort()) {
    if (entry.startsWith('.') || entry === 'node_modules') continue;
    const child = join(path, entry);
    if (statSync(child, { throwIfNoEntry: false })?.isDirectory()) walk(child, out);
    else if (SPEC_FILE.test(entry)) out.push(child);
  }
}

/** idemgen's own code: the compiled files and templates next to this module (size + mtime is enough). */
function codeFingerprint(hash: ReturnType<typeof createHash>): void {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
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
  const files: string[] = [];
  for (const input of inputs) walk(input, files);
  for (const file of files) {
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(file));
  }
  codeFingerprint(hash);
  return hash.digest('hex');
}

interface CacheRecord {
  fingerprint: string;
  files: Record<string, string>;
}

const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** The folder of idemgen's caches (generate's input cache, serve's analysis cache). */
export const cacheDir = (cwd: string): string => join(cwd, 'node_modules', '.cache', 'idemgen');

export function cacheFile(cwd: string, outDir: string): string {
  return join(cacheDir(cwd), `${sha(outDir).slice(0, 16)}.json`);
}

export function isUpToDate(file: string, fingerprint: string, outDir: string): boolean {
  if (!existsSync(file)) return false;
  let record: CacheRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as CacheRecord;
  } catch {
    return false;
  }
  if (record.fingerprint !== fingerprint) return false;
  const onDisk = listFiles(outDir);
  const expected = Object.keys(record.files).sort();
  if (onDisk.length !== expected.length || onDisk.some((p, i) => p !== expected[i])) return false;
  return expected.every((p) => sha(readFileSync(join(outDir, ...p.split('/')))) === record.files[p]);
}

/** `files`: output path → sha256 of its contents (UTF-8 bytes). */
export function saveCache(file: string, fingerprint: string, files: Record<string, string>): void {
  mkdirSync(dirname(file), { recursive: true });
  const record: CacheRecord = { fingerprint, files };
  writeFileSync(file, JSON.stringify(record));
}
