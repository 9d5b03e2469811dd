/**
 * Writing and comparing the output folder. Writes are atomic at folder level: everything is written to a
 * sibling temporary folder first and swapped in with two renames, so a failed or interrupted run leaves
 * the previous folder as it was, and files that are no longer produced disappear only on success.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, sep } from 'node:path';
import type { EmittedFile, FileSink, FileWriter } from '../emit/types.js';
import { InputError, diagnostic } from '../diagnostics/diagnostic.js';
import { outputPathProblem } from '../escape/index.js';

import { listFiles } from '../cache/fingerprint.js';

export { listFiles };

/** Every path an emitter hands over is checked here, at the one place files are written (an internal error if not). */
function assertSafeRelativePath(path: string): void {
  const problem = outputPathProblem(path);
  if (problem !== undefined)
    throw new Error(`emitter produced an unsafe output path ${JSON.stringify(path)}: it ${problem}`);
}

/**
 * A set of output paths in which no two name the same file on a case-insensitive file system (macOS and
 * Windows defaults): the second would silently overwrite the first there.
 */
function claimPath(claimed: Map<string, string>, path: string): void {
  assertSafeRelativePath(path);
  const folded = path.normalize('NFC').toLowerCase();
  const first = claimed.get(folded);
  if (first !== undefined)
    throw new Error(
      `emitter produced output paths that differ only by case (or twice): ${JSON.stringify(first)} and ${JSON.stringify(path)}`,
    );
  claimed.set(folded, path);
}

export interface WriteHooks {
  /** Called after each file is written to the temporary folder (tests use it to simulate a crash). */
  afterFile?: (path: string) => void;
}

/**
 * A sibling temporary folder that files are written into one by one (so emitters' output can be
 * released as it is written), then swapped in by `commit` or removed by `abort`.
 */
/** A staged file that also takes bytes already encoded (the CLI encodes each batch once, for the file and its hash). */
interface StagedFile extends FileWriter {
  writeBytes(bytes: Uint8Array): void;
}

export interface Staging extends FileSink {
  file(path: string): StagedFile;
  write(file: EmittedFile): void;
  commit(): void;
  abort(): void;
}

export function stageOutput(outDir: string, hooks: WriteHooks = {}): Staging {
  const parent = dirname(outDir);
  mkdirSync(parent, { recursive: true });
  if (
    existsSync(outDir) &&
    !readdirSync(parent, { withFileTypes: true })
      .find((e) => e.name === basename(outDir))
      ?.isDirectory()
  ) {
    throw new InputError([
      diagnostic('output_not_a_directory', 'error', `Output path exists and is not a directory: ${outDir}`, {
        file: outDir,
      }),
    ]);
  }
  // Not mkdtemp: its folder is 0700, and the rename would hand the user a generated/ nobody else can read.
  // A plain mkdir gets the umask's mode (0755 under the usual 022), like the files (0644); the random name
  // is the uniqueness, and mkdir without `recursive` fails rather than reuse an existing folder.
  const tmp = join(parent, `.${basename(outDir)}.tmp-${randomBytes(6).toString('hex')}`);
  mkdirSync(tmp);
  const open = new Set<number>();
  const claimed = new Map<string, string>();
  const abort = (): void => {
    for (const fd of open) closeSync(fd);
    open.clear();
    rmSync(tmp, { recursive: true, force: true });
  };
  const target = (path: string): string => {
    claimPath(claimed, path);
    const file = join(tmp, ...path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    return file;
  };
  return {
    write(file) {
      writeFileSync(target(file.path), file.contents);
      hooks.afterFile?.(file.path);
    },
    file(path): StagedFile {
      // Chunks go straight to the file, so a streamed file is never held whole (tools/ on Graph: 150 MB).
      const fd = openSync(target(path), 'w');
      open.add(fd);
      return {
        write: (chunk) => void writeSync(fd, chunk),
        writeBytes: (bytes) => void writeSync(fd, bytes),
        end() {
          open.delete(fd);
          closeSync(fd);
          hooks.afterFile?.(path);
        },
      };
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

/**
 * Compares one streamed file with its copy on disk chunk by chunk, so neither is ever held whole
 * (`check` on Graph: three ~50 MB tool files are written interleaved). Returns whether all bytes matched.
 */
function chunkComparer(file: string): FileWriter & { same(): boolean } {
  const fd = openSync(file, 'r');
  let position = 0;
  let same = true;
  let open = true;
  return {
    write(chunk) {
      if (!same) return;
      const want = Buffer.from(chunk);
      const got = Buffer.alloc(want.length);
      const read = readSync(fd, got, 0, got.length, position);
      position += read;
      same = read === want.length && got.equals(want);
    },
    end() {
      if (same) same = fstatSync(fd).size === position;
      closeSync(fd);
      open = false;
    },
    same: () => !open && same,
  };
}

/**
 * `idemgen check` as a sink: each file is compared while it streams and dropped, so `check` never
 * holds the output. `report()` also lists what is on disk but was never produced.
 */
export function compareSink(outDir: string): { sink: FileSink; count(): number; report(): DriftReport } {
  const onDisk = new Set(listFiles(outDir));
  const drift: DriftReport = { missing: [], extra: [], changed: [] };
  let count = 0;
  const ignore: FileWriter = { write: () => undefined, end: () => undefined };
  const sink: FileSink = {
    file(path) {
      count += 1;
      assertSafeRelativePath(path);
      if (!onDisk.delete(path)) {
        drift.missing.push(path);
        return ignore;
      }
      const comparer = chunkComparer(join(outDir, ...path.split('/')));
      return {
        write: (chunk) => comparer.write(chunk),
        end() {
          comparer.end();
          if (!comparer.same()) drift.changed.push(path);
        },
      };
    },
  };
  const sorted = (list: Iterable<string>): string[] => [...list].sort();
  return {
    sink,
    count: () => count,
    report: () => ({ missing: sorted(drift.missing), extra: sorted(onDisk), changed: sorted(drift.changed) }),
  };
}

export function displayPath(path: string, cwd: string): string {
  return path.startsWith(cwd + sep)
    ? path
        .slice(cwd.length + 1)
        .split(sep)
        .join('/')
    : path;
}
