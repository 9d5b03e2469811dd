/**
 * The part of an `idemgen serve` start that reads the specs: load → IR → classify → bindings → the listing,
 * stored in the serve cache for the next start. Plain data in, plain data out (`ServeAnalysisOutcome`): it
 * imports no MCP SDK and no CLI module, and could run in a worker thread (measured: on a busy 2-core machine
 * a worker made the first start slower,
 * docs/decisions/0201-serves-first-start-one-walk-listing-prebuilt-store-ddl-sdk.md).
 */
import { analyze } from '../analyze.js';
import type { ResolvedConfig, ToolSelection } from '../config/types.js';
import { ConfigError, type Diagnostic, InputError } from '../diagnostics/diagnostic.js';
import { locateDiagnostics } from '../diagnostics/locate.js';
import { explainEmptySelection } from '../emit/select.js';
import { terminalText } from '../escape/index.js';
import { listedToolsOf } from '@idemgen/runtime/internal/mcp/listing.js';
import type { RegisterToolRuntimeOptions } from '@idemgen/runtime/mcp';
import { writeServeCache } from './cache.js';
import { cacheable, hashBundledParts } from '../cache/fingerprint.js';
import { serveAnalysis } from './runtime.js';
import type { ServeAnalysis } from './tools.js';

export interface ServeAnalysisJob {
  inputs: string[];
  config: ResolvedConfig;
  cwd: string;
  select: ToolSelection;
  /** How `tools/list` lists one tool per operation; absent in dynamic and code mode (no listing kept). */
  listing?: Pick<RegisterToolRuntimeOptions, 'serverArguments' | 'keySource' | 'compact'>;
  /** Where to store the analysis for the next start; absent with `--no-cache`. */
  cache?: { file: string; key: string };
}

/** The analysis, or the problem the command reports (exit 2): input or config diagnostics, a setup message. */
export type ServeAnalysisOutcome =
  | { ok: true; analysis: ServeAnalysis }
  | { ok: false; problem: 'input' | 'config'; diagnostics: Diagnostic[] }
  | { ok: false; problem: 'setup'; message: string };

export async function runServeAnalysis(job: ServeAnalysisJob): Promise<ServeAnalysisOutcome> {
  let result: Awaited<ReturnType<typeof analyze>>;
  try {
    // Only input errors are kept below, and located there: the IR does not locate the notes serve drops, and
    // classify makes no audit findings about finished entries (serve never reads plan.diagnostics).
    result = await analyze(job.inputs, job.config, job.cwd, [], {
      locateIrDiagnostics: false,
      entryFindings: false,
      checkOverrides: false,
    });
  } catch (err) {
    if (err instanceof InputError) return { ok: false, problem: 'input', diagnostics: err.diagnostics };
    if (err instanceof ConfigError) return { ok: false, problem: 'config', diagnostics: err.diagnostics };
    throw err;
  }
  // Serve prints no warnings (it is a server); an error stops the start, located in its source.
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { ok: false, problem: 'input', diagnostics: locateDiagnostics(errors, result.docs) };
  const analysis = serveAnalysis(result.plan, job.config, job.select);
  if (analysis.apis.every((a) => a.bindings.length === 0))
    return {
      ok: false,
      problem: 'setup',
      message: `no tools to serve: ${terminalText(explainEmptySelection(result.plan, job.select))}`,
    };
  if (job.listing !== undefined) {
    analysis.listing = listedToolsOf(
      analysis.apis.flatMap((a) => a.bindings),
      job.listing,
    );
    analysis.listingBytes = Buffer.byteLength(JSON.stringify(analysis.listing));
  }
  // A start whose refs did not all resolve is not remembered (cache/fingerprint.ts `cacheable`).
  if (job.cache !== undefined && cacheable(result.diagnostics))
    writeServeCache(job.cache.file, job.cache.key, analysis, hashBundledParts(result.docs, job.cwd));
  return { ok: true, analysis };
}
