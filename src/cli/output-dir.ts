/**
 * Writing and comparing the output folder. Writes are atomic at folder level: everything is written to a
 * sibling temporary folder first and swapped in with two renames, so a failed or interrupted run leaves
 * the previous folder as it was, and files that are no longer produced disappear only on success.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, posix, sep } from 'node:path';
import type { EmittedFile } from '../emit/types.js';
import { InputError, diagnostic } from '../diagnostics/diagnostic.js';

export function assertSafeRelativePath(path: string): void {
  const norm = posix.normalize(path);
  if (path.length === 0 || posix.isAbsolute(path) || norm.startsWith('../') || norm === '..' || path.includes('\\') || path.includes('\0')) {
    throw new Error(`emitter produced an unsafe output path: ${JSON.stringify(path)}`);
  }
}

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

export interface WriteHooks {
  /** Called after each file is written to the temporary folder (tests use it to simulate a crash). */
  afterFile?: (path: string) => void;
}

/**
 * A sibling temporary folder that files are written into one by one (so emitters' output can be
 * released as it is written), then swapped in by `commit` or removed by `abort`.
 */
export interface Staging {
  write(file: EmittedFile): void;
  commit(): void;
  abort(): void;
}

export function stageOutput(outDir: string, hooks: WriteHooks = {}): Staging {
  const parent = dirname(outDir);
  mkdirSync(parent, { recursive: true });
  if (existsSync(outDir) && !readdirSync(parent, { withFileTypes: true }).find((e) => e.name === basename(outDir))?.isDirectory()) {
    throw new InputError([diagnostic('output_not_a_directory', 'error', `Output path exists and is not a directory: ${outDir}`, { file: outDir })]);
  }
  const tmp = mkdtempSync(join(parent, `.${basename(outDir)}.tmp-`));
  const abort = (): void => rmSync(tmp, { recursive: true, force: true });
  return {
    write(file) {
      assertSafeRelativePath(file.path);
      const target = join(tmp, ...file.path.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.contents);
      hooks.afterFile?.(file.path);
    },
    abort,
    commit() {
      const old = existsSync(outDir) ? `${tmp}.old` : undefined;
      if (old) renameSync(outDir, old);
      try {
        renameSync(tmp, outDir);
      } catch (err) {
        if (old) renameSync(old, outDir);
        abort();
        throw err;
      }
      if (old) rmSync(old, { recursive: true, force: true });
    },
  };
}

export function writeOutputAtomically(outDir: string, files: EmittedFile[], hooks: WriteHooks = {}): void {
  const staging = stageOutput(outDir, hooks);
  try {
    for (const file of files) staging.write(file);
  } catch (err) {
    staging.abort();
    throw err;
  }
  staging.commit();
}

export interface DriftReport {
  missing: string[];
  extra: string[];
  changed: string[];
}

/** Byte compare of what would be generated with what is on disk (`idemgen check`). */
export function compareOutput(outDir: string, files: EmittedFile[]): DriftReport {
  const onDisk = new Set(listFiles(outDir));
  const report: DriftReport = { missing: [], extra: [], changed: [] };
  for (const file of files) {
    if (!onDisk.has(file.path)) report.missing.push(file.path);
    else if (!readFileSync(join(outDir, ...file.path.split('/'))).equals(Buffer.from(file.contents))) report.changed.push(file.path);
    onDisk.delete(file.path);
  }
  report.extra = [...onDisk].sort();
  return report;
}

export function displayPath(path: string, cwd: string): string {
  return path.startsWith(cwd + sep) ? path.slice(cwd.length + 1).split(sep).join('/') : path;
}
