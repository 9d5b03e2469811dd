/**
 * Every artifact idemgen can emit, one line each. Adding an artifact is a folder under `emit/` that exports
 * an `artifact.ts` (`defineArtifact(…)`, light: the emitter itself loads on demand) and one line here;
 * config validation, the pipeline and `ArtifactKind` follow from this list.
 */
import type { ConfigExtensions } from '../config/validate.js';
import type { Artifact, ArtifactInput } from './artifact.js';
import { clientArtifact } from './client/artifact.js';
import { handlersArtifact } from './handlers/artifact.js';
import { mcpArtifact } from './mcp/artifact.js';
import { reportArtifact } from './report/artifact.js';
import { sqlArtifact } from './sql/artifact.js';
import { toolsArtifact } from './tools/artifact.js';

export const ARTIFACTS = [
  clientArtifact,
  handlersArtifact,
  sqlArtifact,
  toolsArtifact,
  mcpArtifact,
  reportArtifact,
] as const satisfies readonly Artifact[];

export type ArtifactKind = (typeof ARTIFACTS)[number]['name'];

const BY_NAME: ReadonlyMap<string, Artifact> = new Map(ARTIFACTS.map((a) => [a.name, a]));

export function findArtifact(name: string): Artifact | undefined {
  return BY_NAME.get(name);
}

export const ARTIFACT_NAMES: readonly ArtifactKind[] = ARTIFACTS.map((a) => a.name);

/** What runs: the config's list, or every default artifact; always in name order (deterministic output). */
export function selectedArtifacts(configured: readonly string[] | undefined): Artifact[] {
  const names = configured ?? ARTIFACTS.filter((a) => a.byDefault).map((a) => a.name);
  return [...new Set(names)].sort().map((name) => {
    const artifact = BY_NAME.get(name);
    if (artifact === undefined) throw new Error(`unknown artifact ${name} (config validation should have caught it)`);
    return artifact;
  });
}

/** Each stage an artifact can consume, with the stages it is built from (hey-api's `$dependencies`). */
const STAGES: Readonly<Record<ArtifactInput, readonly ArtifactInput[]>> = {
  plan: [],
  toolModel: ['plan'],
};

/** A stage the run builds and the artifacts that render from it (its consumers, in name order). */
export interface EmitStep {
  stage: ArtifactInput;
  artifacts: Artifact[];
}

/** Stages in dependency order: each after every stage it is built from (declaration order breaks ties). */
function stageOrder(stages: Readonly<Record<string, readonly string[]>>): string[] {
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (stage: string): void => {
    if (order.includes(stage)) return;
    if (visiting.has(stage)) throw new Error(`stage ${stage} is built from itself`);
    visiting.add(stage);
    for (const need of stages[stage] ?? []) visit(need);
    visiting.delete(stage);
    order.push(stage);
  };
  for (const stage of Object.keys(stages)) visit(stage);
  return order;
}

/**
 * What a run builds, in dependency order: every stage a selected artifact consumes, each once, with the
 * artifacts that render from it — an artifact runs at the last of the stages it consumes. A stage no
 * selected artifact consumes is not built (the tool model, when neither tools nor handlers run).
 * `consumes` must name a stage's own inputs too (`['plan', 'toolModel']`): the declaration is the whole
 * list of what the artifact reads.
 */
export function scheduleArtifacts(
  selected: readonly Artifact[],
  stages: Readonly<Record<string, readonly string[]>> = STAGES,
): EmitStep[] {
  const order = stageOrder(stages);
  const steps = new Map<string, Artifact[]>();
  for (const artifact of selected) {
    const consumes: readonly string[] = artifact.consumes;
    for (const stage of consumes) {
      if (!Object.hasOwn(stages, stage)) throw new Error(`artifact ${artifact.name} consumes unknown stage ${stage}`);
      const missing = stages[stage]!.filter((need) => !consumes.includes(need));
      if (missing.length > 0)
        throw new Error(
          `artifact ${artifact.name} consumes ${stage} but not ${missing.join(', ')}, which ${stage} is built from`,
        );
    }
    const last = order.filter((stage) => consumes.includes(stage)).at(-1);
    if (last === undefined) throw new Error(`artifact ${artifact.name} consumes nothing`);
    steps.set(last, [...(steps.get(last) ?? []), artifact]);
  }
  return order.flatMap((stage) => {
    const artifacts = steps.get(stage);
    return artifacts === undefined ? [] : [{ stage: stage as ArtifactInput, artifacts }];
  });
}

/** What the config layer needs to know about artifacts (it sits below emit and never imports it). */
export function configExtensions(): ConfigExtensions {
  const sections: ConfigExtensions['sections'] = Object.fromEntries(
    ARTIFACTS.flatMap((a: Artifact) => (a.checkOptions === undefined ? [] : [[a.name, a.checkOptions.bind(a)]])),
  );
  return { artifacts: ARTIFACT_NAMES, sections };
}
