/**
 * The in-memory side of the streaming contract (emit/types.ts `FileSink`): chunks are joined into
 * whole files, so a `StreamingEmitter` can serve the `Emitter` contract (library, `check`, tests) and
 * every caller sees the same bytes whether the files went to disk or stayed in memory.
 */
import type { EmittedFile, EmitResult, FileSink, StreamingEmitter } from './types.js';
import type { Plan } from '../classify/types.js';
import type { ResolvedConfig } from '../config/types.js';

/** A sink that calls `onFile` with each whole file as soon as it ends. */
export function memorySink(onFile: (file: EmittedFile) => void): FileSink {
  return {
    file(path) {
      const chunks: string[] = [];
      let open = true;
      return {
        write(chunk) {
          if (!open) throw new Error(`write after end: ${path}`);
          chunks.push(chunk);
        },
        end() {
          if (!open) throw new Error(`file ended twice: ${path}`);
          open = false;
          onFile({ path, contents: chunks.join('') });
          chunks.length = 0;
        },
      };
    },
  };
}

const byPath = (a: EmittedFile, b: EmittedFile): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Runs a streaming emitter into memory: its files sorted by path, as an `Emitter` returns them. */
export function collectFiles(emit: StreamingEmitter, plan: Plan, config: ResolvedConfig): EmitResult {
  const files: EmittedFile[] = [];
  const diagnostics = emit(
    plan,
    config,
    memorySink((file) => files.push(file)),
  );
  return { files: files.sort(byPath), diagnostics };
}
