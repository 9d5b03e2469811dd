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
