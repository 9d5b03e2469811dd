import type { Plan } from '../classify/types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ResolvedConfig } from '../config/types.js';

/** A file an emitter wants written, relative to the output folder, POSIX separators, LF endings. */
export interface EmittedFile {
  path: string;
  contents: string;
}

export interface EmitResult {
  files: EmittedFile[];
  diagnostics: Diagnostic[];
}

/** Every emitter has this signature and is pure: same plan + config → byte-identical files. */
export type Emitter = (plan: Plan, config: ResolvedConfig) => EmitResult;

/** One output file being written piece by piece; `end` closes it (its contents are the chunks in order). */
export interface FileWriter {
  write(chunk: string): void;
  end(): void;
}

/**
 * Where a streaming emitter puts its files. The sink belongs to the caller (the CLI writes to disk, the
 * library collects in memory), so the emitter itself stays pure: same plan + config → same chunks.
 */
export interface FileSink {
  file(path: string): FileWriter;
}

/**
 * An emitter whose output is too large to hold (Microsoft Graph: ~150 MB of tool JSON) hands its files
 * to a sink as it renders them. The bytes of each file must equal what the in-memory `Emitter` returns.
 */
export type StreamingEmitter = (plan: Plan, config: ResolvedConfig, sink: FileSink) => Diagnostic[];
