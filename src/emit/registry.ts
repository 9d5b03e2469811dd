/**
 * Every artifact idemgen can emit, one line each. Adding an artifact is a folder under `emit/` that exports
 * an `artifact.ts` (`defineArtifact(…)`, light: the emitter itself loads on demand) and one line here;
 * config validation, the pipeline and `ArtifactKind` follow from this list.
 */
import type { ConfigExtensions } from '../config/validate.js';
import type { Artifact } from './artifact.js';
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

/** What the config layer needs to know about artifacts (it sits below emit and never imports it). */
export function configExtensions(): ConfigExtensions {
  const sections: ConfigExtensions['sections'] = Object.fromEntries(
    ARTIFACTS.flatMap((a: Artifact) => (a.checkOptions === undefined ? [] : [[a.name, a.checkOptions.bind(a)]])),
  );
  return { artifacts: ARTIFACT_NAMES, sections };
}
