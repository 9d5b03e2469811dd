/**
 * Input cache: an unchanged re-run of `generate` does no work. The fingerprint covers every input file,
 * the config file, the options that shape output and idemgen's own code, so any change invalidates it;
 * the recorded output hashes are re-checked so a hand-edited output folder is regenerated, and so are the
 * files a spec's external `$ref`s bundled in (which may sit outside the input folders).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundledPartsUnchanged, cacheDir, listFiles } from '../cache/fingerprint.js';

export { cacheable, fingerprintInputs, hashBundledParts } from '../cache/fingerprint.js';

interface CacheRecord {
  fingerprint: string;
  files: Record<string, string>;
  /** Files bundled in through external `$ref`s: absolute path → sha256 of its bytes. */
  parts?: Record<string, string>;
}

const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

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
  const parts = typeof record.parts === 'object' && record.parts !== null ? record.parts : {};
  if (!bundledPartsUnchanged(parts)) return false;
  const onDisk = listFiles(outDir);
  const expected = Object.keys(record.files).sort();
  if (onDisk.length !== expected.length || onDisk.some((p, i) => p !== expected[i])) return false;
  return expected.every((p) => sha(readFileSync(join(outDir, ...p.split('/')))) === record.files[p]);
}

/**
 * `files`: output path → sha256 of its contents (UTF-8 bytes); `parts`: the files external `$ref`s bundled
 * in, hashed (hashBundledParts), so that an edit to one outside the input folders is seen.
 */
export function saveCache(
  file: string,
  fingerprint: string,
  files: Record<string, string>,
  parts: Record<string, string> = {},
): void {
  mkdirSync(dirname(file), { recursive: true });
  const record: CacheRecord = { fingerprint, files, ...(Object.keys(parts).length > 0 ? { parts } : {}) };
  writeFileSync(file, JSON.stringify(record));
}

/** Forgets the cache entry: the next run works in full. */
export function dropCache(file: string): void {
  rmSync(file, { force: true });
}
