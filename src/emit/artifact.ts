/**
 * The one interface every artifact implements (hey-api's plugin shape, narrowed to what we need): a name
 * that is also its config entry and output folder, whether it is on by default, an optional check of its
 * own config section, and one `emit` into a sink — whole-file emitters and streaming ones alike.
 */
import type { Plan } from '../classify/types.js';
import type { ResolvedConfig } from '../config/types.js';
import type { OptionProblem } from '../config/validate.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ToolSpecRider, ToolSpecRiderFactory } from './tools/spec-rider.js';
import type { Emitter, FileSink } from './types.js';

/**
 * Emits an artifact into a sink. Pure: same plan + config → the same chunks. `riders` reach only the
 * artifact that `hostsRiders` (tools/spec-rider.ts).
 */
export type ArtifactEmit = (
  plan: Plan,
  config: ResolvedConfig,
  sink: FileSink,
  riders?: readonly ToolSpecRider[],
) => Diagnostic[];

export interface Artifact<Name extends string = string> {
  /** Config `artifacts` entry, `--artifact` value and the top folder of its files. */
  readonly name: Name;
  /** One line for `--help` and the README table. */
  readonly summary: string;
  /** In the default `artifacts` list (a config without `artifacts` gets every default one). */
  readonly byDefault: boolean;
  /** One entry per tool: emitted from the plan narrowed by the config's `select` (emit/select.ts). */
  readonly selectsTools?: boolean;
  /**
   * Checks `config[name]`, the artifact's own section (absent = no section). Returns problems; the config
   * loader turns them into `invalid_config` diagnostics with the pointer.
   */
  checkOptions?(value: unknown, pointer: string): OptionProblem[];
  /**
   * Loads the emitter. Dynamic, so a command that only validates the config (or a `generate` answered
   * from the cache) loads no emitter code (Handlebars among it).
   */
  load(): Promise<ArtifactEmit>;
  /** Builds every tool spec and hands each to the riders of the run (the tools artifact). */
  readonly hostsRiders?: boolean;
  /**
   * Renders from tool specs: when the host artifact runs too, this replaces `load` and the artifact's
   * files are written during the host's pass, so no spec is built twice. Needs `selectsTools`, as the host.
   */
  loadRider?(): Promise<ToolSpecRiderFactory>;
}

/** Declares an artifact, keeping its name as a literal type (so `ArtifactKind` is derived from the registry). */
export function defineArtifact<const Name extends string>(artifact: Artifact<Name>): Artifact<Name> {
  return artifact;
}

/** An `emit` for an emitter that returns whole files: each file goes to the sink as one chunk. */
export function fromWholeFiles(emitter: Emitter): ArtifactEmit {
  return (plan, config, sink) => {
    const result = emitter(plan, config);
    for (const file of result.files) {
      const out = sink.file(file.path);
      out.write(file.contents);
      out.end();
    }
    return result.diagnostics;
  };
}
