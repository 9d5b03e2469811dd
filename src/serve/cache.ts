/**
 * The serve cache: what `idemgen serve` derived from the specs (`ServeAnalysis`, tools.ts) kept between
 * starts, so a restart on unchanged input skips load, IR, classification and binding. One entry per set of
 * inputs, in the folder `generate`'s cache uses. Its key hashes the entry's format, idemgen's version and
 * code, the config, the tool selection and every input file's bytes; the files the specs' `$ref`s bundled in
 * are hashed into the entry and re-checked on read. An entry that is missing, unreadable or for another key
 * is ignored (and rewritten by that start); it is written to a temporary file and renamed into place.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ResolvedConfig } from '../config/types.js';
import { bundledPartsUnchanged, cacheDir, fingerprintInputs } from '../cache/fingerprint.js';
import { VERSION } from '../cache/version.js';
import type { ServeAnalysis } from './tools.js';

/** Bumped whenever `ServeAnalysis` (or the binding shape inside it) changes: older entries stop matching. */
const SERVE_CACHE_FORMAT = 2;

interface ServeCacheRecord {
  format: number;
  key: string;
  /** Files bundled into the specs (paths as resolved here) → sha256 of their bytes. */
  parts: Record<string, string>;
  analysis: ServeAnalysis;
}

const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/**
 * The entry for these inputs (resolved paths) served one tool per operation (`listed`) or through fixed
 * tools (dynamic and code mode): a start in either mode keeps its own entry for the same specs; each is
 * overwritten when its key changes (another config, selection, idemgen or input bytes).
 */
export const serveCacheFile = (cwd: string, inputs: readonly string[], listed: boolean): string =>
  join(cacheDir(cwd), `serve-${sha(JSON.stringify(inputs)).slice(0, 16)}${listed ? '' : '-fixed'}.json`);

/** `options`: every serve option the stored analysis depends on (the tool selection, how tools are listed). */
export function serveCacheKey(inputs: string[], config: ResolvedConfig, options: object): string {
  return sha(
    JSON.stringify({
      format: SERVE_CACHE_FORMAT,
      version: VERSION,
      options,
      inputs: fingerprintInputs(inputs, config, 'serve'),
    }),
  );
}

/** The stored analysis when the entry is readable, has this key and its bundled files are unchanged. */
export function readServeCache(file: string, key: string): ServeAnalysis | undefined {
  let record: ServeCacheRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as ServeCacheRecord;
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  if (record.format !== SERVE_CACHE_FORMAT || record.key !== key) return undefined;
  if (typeof record.parts !== 'object' || record.parts === null) return undefined;
  if (!Array.isArray(record.analysis?.apis)) return undefined;
  return bundledPartsUnchanged(record.parts) ? record.analysis : undefined;
}

/** `parts`: the bundled files, hashed (hashBundledParts). A failed write only costs the next start. */
export function writeServeCache(
  file: string,
  key: string,
  analysis: ServeAnalysis,
  parts: Record<string, string>,
): void {
  const record: ServeCacheRecord = { format: SERVE_CACHE_FORMAT, key, parts, analysis };
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(resolve(file, '..'), { recursive: true });
    writeFileSync(tmp, JSON.stringify(record));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
