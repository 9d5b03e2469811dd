/**
 * load → ir → classify → emit (the tool model first, for the artifacts that consume it), without writing
 * anything. The CLI and the library both call this; only `loadInputs` touches the filesystem (reading).
 */
import type { Plan } from './classify/types.js';
import type { ResolvedConfig } from './config/types.js';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import type { EmittedFile, FileSink } from './emit/types.js';
import { analyze, type AnalysisResult } from './analyze.js';
import { consumesToolModel, type ArtifactEmit } from './emit/artifact.js';
import { scheduleArtifacts, selectedArtifacts } from './emit/registry.js';
import { selectPlan } from './emit/select.js';
import { memorySink } from './emit/memory-sink.js';
import { streamToolModel, type ToolModelConsumer, type ToolModelEmit } from './emit/tool-model.js';
import { timed, timedAsync } from './timing.js';

export { analyze, type AnalysisResult } from './analyze.js';

export interface PipelineResult extends AnalysisResult {
  files: EmittedFile[];
  /** Emitter diagnostics. */
  emitDiagnostics: Diagnostic[];
}

/**
 * Runs the selected artifacts (emit/registry.ts) into `sink`, stage by stage (`scheduleArtifacts`): the
 * plan's artifacts one at a time in name order, then the tool model once for all its consumers (tools,
 * handlers), each tool built once and handed to every one of them. Streaming emitters write their files
 * piece by piece, so a sink that writes to disk can let every file go (Graph-sized specs produce ~200 MB
 * of output, 150 MB of it tool JSON). Diagnostics come in artifact name order, whatever the stages.
 */
export async function emitEach(plan: Plan, config: ResolvedConfig, sink: FileSink): Promise<Diagnostic[]> {
  const toolPlan = selectPlan(plan, config.select);
  const selected = selectedArtifacts(config.artifacts);
  const byArtifact = new Map<string, Diagnostic[]>();
  // Every emitter's module is loaded at once: Node reads ES modules through its thread pool, and one after
  // another each load left the process idle while its files were read (~20 ms of a Stripe run).
  const loading = new Map(selected.map((artifact) => [artifact.name, artifact.load()] as const));
  await timedAsync('import emitters', () => Promise.allSettled([...loading.values()] as Promise<unknown>[]));
  for (const step of scheduleArtifacts(selected)) {
    for (const artifact of step.artifacts) {
      if (consumesToolModel(artifact)) continue;
      const emit = (await loading.get(artifact.name)) as ArtifactEmit;
      const input = artifact.selectsTools ? toolPlan : plan;
      byArtifact.set(
        artifact.name,
        timed(`emit ${artifact.name}`, () => emit(input, config, sink)),
      );
    }
    const consumers = step.artifacts.filter(consumesToolModel);
    if (step.stage !== 'toolModel' || consumers.length === 0) continue;
    const opened: ToolModelConsumer[] = [];
    for (const artifact of consumers)
      opened.push(((await loading.get(artifact.name)) as ToolModelEmit)(toolPlan, config, sink));
    const label = `emit toolModel → ${consumers.map((a) => a.name).join(' + ')}`;
    const results = timed(label, () => streamToolModel(toolPlan, config, opened));
    for (const [i, artifact] of consumers.entries()) byArtifact.set(artifact.name, results[i]!);
  }
  return selected.flatMap((artifact) => byArtifact.get(artifact.name) ?? []);
}

/** Every selected artifact's files in memory, sorted by path (the library's and the tests' form). */
export async function emitAll(
  plan: Plan,
  config: ResolvedConfig,
): Promise<{ files: EmittedFile[]; diagnostics: Diagnostic[] }> {
  const files: EmittedFile[] = [];
  const diagnostics = await emitEach(
    plan,
    config,
    memorySink((file) => files.push(file)),
  );
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics };
}

export async function runPipeline(inputs: string[], config: ResolvedConfig, cwd: string): Promise<PipelineResult> {
  const analysis = await analyze(inputs, config, cwd);
  const emitted = await emitAll(analysis.plan, config);
  return { ...analysis, files: emitted.files, emitDiagnostics: emitted.diagnostics };
}
