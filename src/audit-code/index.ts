/**
 * The code audit: agent TypeScript/JavaScript in, Diagnostics with file:line:col out, in the same
 * model as spec findings so every report format renders them. Files that do not parse still get
 * audited as far as ts-morph recovers; an unreadable file is a diagnostic, never a crash.
 */
import { readFileSync } from 'node:fs';
import { resolveHeuristics } from '../classify/heuristics.js';
import type { ResolvedConfig } from '../config/types.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { displayPath } from '../load/discover.js';
import { checkInterrupt } from './check-interrupt.js';
import { checkKeys } from './check-keys.js';
import { checkSdk } from './check-sdk.js';
import { checkTools } from './check-tools.js';
import { makeEmitter } from './emit.js';
import { createCodeProject } from './project.js';
import { scanFile } from './scan.js';
import { toolSites } from './sites.js';

export { CODE_RULES } from './rules.js';
export { routeInputs } from './inputs.js';

export interface CodeAuditResult {
  diagnostics: Diagnostic[];
  /** Display paths of the audited files. */
  files: string[];
  tools: number;
}

export function auditCode(files: readonly string[], config: ResolvedConfig, cwd: string): CodeAuditResult {
  const diagnostics: Diagnostic[] = [];
  const readable = files.filter((f) => {
    try {
      readFileSync(f);
      return true;
    } catch (err) {
      diagnostics.push(
        diagnostic(
          'unreadable_file',
          'error',
          `cannot read ${displayPath(f, cwd)} (${(err as NodeJS.ErrnoException).code ?? 'EIO'})`,
          { file: displayPath(f, cwd) },
        ),
      );
      return false;
    }
  });
  const project = createCodeProject(readable);
  const h = resolveHeuristics(config);
  let tools = 0;
  for (const sf of project.getSourceFiles()) {
    const emit = makeEmitter(config, displayPath(sf.getFilePath(), cwd), diagnostics);
    const found = scanFile(sf, h);
    const sites = toolSites(found.toolCalls);
    tools += sites.length;
    checkKeys(found.sinks, sites, h, emit);
    checkTools(sites, h, emit);
    checkInterrupt(found.interrupts, h, emit);
    checkSdk(found.sdkCalls, h, emit);
    // The syntax trees of audited files are not needed again; let them go (large projects).
    sf.forgetDescendants();
  }
  return { diagnostics, files: readable.map((f) => displayPath(f, cwd)), tools };
}
