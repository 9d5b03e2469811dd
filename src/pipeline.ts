/**
 * load → ir → classify → emit, without writing anything. The CLI and the library both call this;
 * only `loadInputs` touches the filesystem (reading).
 */
import type { ApiModel } from './ir/types.js';
import type { Plan } from './classify/types.js';
import type { ArtifactKind, ResolvedConfig } from './config/types.js';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import type { EmittedFile, Emitter, FileSink, StreamingEmitter } from './emit/types.js';
import type { LoadedDoc } from './load/types.js';
import { loadInputs } from './load/index.js';
import { buildApiModels } from './ir/index.js';
import { namedApiIds } from './config/api-names.js';
import { classify } from './classify/index.js';
import { locateDiagnostics } from './diagnostics/locate.js';
import { emitClient } from './emit/client/index.js';
import { emitSql } from './emit/sql/index.js';
import { emitTools, streamTools } from './emit/tools/index.js';
import { emitReport } from './emit/report/index.js';

export const EMITTERS: Record<ArtifactKind, Emitter> = {
  client: emitClient,
  sql: emitSql,
  tools: emitTools,
  report: emitReport,
};

/** Emitters that can also hand their files over piece by piece (same bytes as their `EMITTERS` form). */
export const STREAMING_EMITTERS: Partial<Record<ArtifactKind, StreamingEmitter>> = {
  tools: streamTools,
};

export interface AnalysisResult {
  docs: LoadedDoc[];
  apis: ApiModel[];
  plan: Plan;
  /** Load and IR diagnostics (input problems). Classification findings are in `plan.diagnostics`. */
  diagnostics: Diagnostic[];
}

export interface PipelineResult extends AnalysisResult {
  files: EmittedFile[];
  /** Emitter diagnostics. */
  emitDiagnostics: Diagnostic[];
}

export async function analyze(inputs: string[], config: ResolvedConfig, cwd: string): Promise<AnalysisResult> {
  const loaded = await loadInputs(inputs, { cwd });
  const named = namedApiIds(loaded.docs.map((d) => d.file), cwd, config.apiNames ?? {}, config.apiName);
  const built = buildApiModels(loaded.docs, named.ids);
  const apis: ApiModel[] = built.apis;
  const diagnostics = [...loaded.diagnostics, ...named.diagnostics, ...built.diagnostics];
  const classified = classify(apis, config);
  // Findings carry line/col in every report, generated/report included, not only in `idemgen audit`.
  const plan = { ...classified, diagnostics: locateDiagnostics(classified.diagnostics, loaded.docs) };
  return { docs: loaded.docs, apis, plan, diagnostics };
}

/**
 * Runs the emitters one at a time into `sink`: streaming emitters write their files piece by piece, the
 * others' files are handed over whole as soon as their emitter returns. A sink that writes to disk can
 * thus let every file go (Graph-sized specs produce ~200 MB of output, 150 MB of it tool JSON).
 */
export function emitEach(plan: Plan, config: ResolvedConfig, sink: FileSink): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const kind of [...config.artifacts].sort()) {
    const streaming = STREAMING_EMITTERS[kind];
    if (streaming !== undefined) {
      diagnostics.push(...streaming(plan, config, sink));
      continue;
    }
    const result = EMITTERS[kind](plan, config);
    diagnostics.push(...result.diagnostics);
    for (const file of result.files) {
      const out = sink.file(file.path);
      out.write(file.contents);
      out.end();
    }
  }
  return diagnostics;
}

export function emitAll(plan: Plan, config: ResolvedConfig): { files: EmittedFile[]; diagnostics: Diagnostic[] } {
  const files: EmittedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const kind of [...config.artifacts].sort()) {
    const result = EMITTERS[kind](plan, config);
    files.push(...result.files);
    diagnostics.push(...result.diagnostics);
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics };
}

export async function runPipeline(inputs: string[], config: ResolvedConfig, cwd: string): Promise<PipelineResult> {
  const analysis = await analyze(inputs, config, cwd);
  const emitted = emitAll(analysis.plan, config);
  return { ...analysis, files: emitted.files, emitDiagnostics: emitted.diagnostics };
}
