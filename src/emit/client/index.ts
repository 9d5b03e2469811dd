/**
 * The client emitter (DESIGN §6): one `client/<api>.gen.ts` per OpenAPI input that has HTTP operations.
 * Tool-definition inputs get no client — their artifact is the tool schema.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Emitter, EmittedFile } from '../types.js';
import { hasHttpOperations, renderClientFile } from './file.js';
import { sagaDiagnostics } from './saga-checks.js';

export const emitClient: Emitter = (plan) => {
  const files: EmittedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const apiPlan of plan.apis) {
    if (!hasHttpOperations(apiPlan.api)) continue;
    files.push({ path: `client/${apiPlan.api.id}.gen.ts`, contents: renderClientFile(apiPlan) });
    diagnostics.push(...sagaDiagnostics(apiPlan));
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics };
};

export { renderClientFile, CLIENT_HEADER } from './file.js';
