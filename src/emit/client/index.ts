/**
 * The client emitter (README.md): one `client/<api>.gen.ts` per OpenAPI input that has HTTP operations.
 * Tool-definition inputs get no client — their artifact is the tool schema.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Emitter } from '../types.js';
import { collectFiles } from '../memory-sink.js';
import type { ArtifactEmit } from '../artifact.js';
import type { ResolvedConfig } from '../../config/types.js';
import { planAnchors } from '../audit-anchors.js';
import { hasHttpOperations, streamClientFile } from './file.js';
import { sagaDiagnostics } from './saga-checks.js';

/** The report is a default artifact: link into it unless the config's artifact list leaves it out. */
function writesReport(config: ResolvedConfig | undefined): boolean {
  return config?.artifacts === undefined || config.artifacts.includes('report');
}

/** Into a sink, each file streamed as it is printed: the pipeline's form (Graph's client is 18 MB). */
export const streamClient: ArtifactEmit = (plan, config, sink) => {
  const anchors = writesReport(config) ? planAnchors(plan) : undefined;
  const diagnostics: Diagnostic[] = [];
  for (const apiPlan of plan.apis) {
    if (!hasHttpOperations(apiPlan.api)) continue;
    streamClientFile(apiPlan, anchors, sink.file(`client/${apiPlan.api.id}.gen.ts`));
    diagnostics.push(...sagaDiagnostics(apiPlan));
  }
  return diagnostics;
};

/** The same files, whole and sorted by path (the library's and the tests' form). */
export const emitClient: Emitter = (plan, config) => collectFiles(streamClient, plan, config);

export { renderClientFile, CLIENT_HEADER } from './file.js';
