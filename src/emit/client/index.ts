/**
 * The client emitter (README.md): one `client/<api>.gen.ts` per OpenAPI input that has HTTP operations.
 * Tool-definition inputs get no client — their artifact is the tool schema.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Emitter, EmittedFile } from '../types.js';
import type { ResolvedConfig } from '../../config/types.js';
import { planAnchors } from '../audit-anchors.js';
import { hasHttpOperations, renderClientFile } from './file.js';
import { sagaDiagnostics } from './saga-checks.js';

/** The report is a default artifact: link into it unless the config's artifact list leaves it out. */
function writesReport(config: ResolvedConfig | undefined): boolean {
  return config?.artifacts === undefined || config.artifacts.includes('report');
}

export const emitClient: Emitter = (plan, config) => {
  const files: EmittedFile[] = [];
  const anchors = writesReport(config) ? planAnchors(plan) : undefined;
  const diagnostics: Diagnostic[] = [];
  for (const apiPlan of plan.apis) {
    if (!hasHttpOperations(apiPlan.api)) continue;
    files.push({ path: `client/${apiPlan.api.id}.gen.ts`, contents: renderClientFile(apiPlan, anchors) });
    diagnostics.push(...sagaDiagnostics(apiPlan));
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics };
};

export { renderClientFile, CLIENT_HEADER } from './file.js';
