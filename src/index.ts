/**
 * The library API of idemgen (`import { analyze } from 'idemgen'`). The runtime is `@idemgen/runtime`.
 * The CLI is not part of it (its entry is `cli/main.ts`, loaded by `bin/idemgen.js`), so a library user
 * never loads yargs.
 */
export { analyze, emitAll, emitEach, runPipeline } from './pipeline.js';
export { ARTIFACTS, findArtifact, selectedArtifacts, configExtensions } from './emit/registry.js';
export type { ArtifactKind } from './emit/registry.js';
export { defineArtifact, fromWholeFiles } from './emit/artifact.js';
export type { Artifact, ArtifactEmit } from './emit/artifact.js';
export type { AnalysisResult, PipelineResult } from './pipeline.js';
export { loadInputs } from './load/index.js';
export { buildApiModel, buildApiModels } from './ir/index.js';
export { classify } from './classify/index.js';
export { emitClient } from './emit/client/index.js';
export { emitSql, renderStoreMigration } from './emit/sql/index.js';
export { emitTools } from './emit/tools/index.js';
export { emitReport, renderAudit } from './emit/report/index.js';
export { loadConfig, findConfigFile } from './config/load.js';
export { resolveConfig, DEFAULT_TTL_SECONDS } from './config/types.js';
export type * from './config/types.js';
export type * from './ir/types.js';
export type * from './classify/types.js';
export type * from './emit/types.js';
export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';
export { InputError, ConfigError } from './diagnostics/diagnostic.js';
