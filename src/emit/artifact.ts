/**
 * The one interface every artifact implements (hey-api's plugin shape, narrowed to what we need): a name
 * that is also its config entry and output folder, whether it is on by default, an optional check of its
 * own config section, what it consumes, and one emitter loaded on demand.
 *
 * `consumes` plays the part of hey-api's `$dependencies`: it names the stages the artifact renders from,
 * and the pipeline builds each needed stage once and hands it to every artifact that consumes it
 * (pipeline.ts, `scheduleArtifacts`). No artifact loads another artifact's emitter.
 * - `['plan']`: the classified plan; the emitter writes into a sink (`ArtifactEmit`).
 * - `['plan', 'toolModel']`: the tool model too (tool-model.ts): the emitter opens a consumer that is fed
 *   each tool once, built for all such artifacts of the run together.
 */
import type { Plan } from '../classify/types.js';
import type { ResolvedConfig } from '../config/types.js';
import type { OptionProblem } from '../config/validate.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ToolModelEmit } from './tool-model.js';
import type { Emitter, FileSink } from './types.js';

/** Emits an artifact into a sink. Pure: same plan + config → the same chunks. */
export type ArtifactEmit = (plan: Plan, config: ResolvedConfig, sink: FileSink) => Diagnostic[];

/** What the pipeline can build for an artifact: the plan (always there) and the tool model (built from it). */
export type ArtifactInput = 'plan' | 'toolModel';

interface ArtifactCommon<Name extends string> {
  /** Config `artifacts` entry, `--artifact` value and the top folder of its files. */
  readonly name: Name;
  /** One line for `--help` and the README table. */
  readonly summary: string;
  /** In the default `artifacts` list (a config without `artifacts` gets every default one). */
  readonly byDefault: boolean;
  /**
   * One entry per tool: emitted from the plan narrowed by the config's `select` (emit/select.ts). The tool
   * model is always built from the narrowed plan, so its consumers need not say so.
   */
  readonly selectsTools?: boolean;
  /**
   * Checks `config[name]`, the artifact's own section (absent = no section). Returns problems; the config
   * loader turns them into `invalid_config` diagnostics with the pointer.
   */
  checkOptions?(value: unknown, pointer: string): OptionProblem[];
}

/** Renders from the plan. */
interface PlanArtifact<Name extends string = string> extends ArtifactCommon<Name> {
  readonly consumes: readonly ['plan'];
  /**
   * Loads the emitter. Dynamic, so a command that only validates the config (or a `generate` answered
   * from the cache) loads no emitter code (Handlebars among it).
   */
  load(): Promise<ArtifactEmit>;
}

/** Renders from the tool model: `load` gives the factory of the run's consumer. */
export interface ToolModelArtifact<Name extends string = string> extends ArtifactCommon<Name> {
  readonly consumes: readonly ['plan', 'toolModel'];
  load(): Promise<ToolModelEmit>;
}

export type Artifact<Name extends string = string> = PlanArtifact<Name> | ToolModelArtifact<Name>;

export function consumesToolModel(artifact: Artifact): artifact is ToolModelArtifact {
  return (artifact.consumes as readonly ArtifactInput[]).includes('toolModel');
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
