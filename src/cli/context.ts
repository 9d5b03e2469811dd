/** What every command gets: where it runs, how it prints, and the resolved config + inputs. */
import { resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import type { ResolvedConfig } from '../config/types.js';
import { InputError, hasErrors, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { AnalysisResult } from '../pipeline.js';
import { locateDiagnostics, renderDiagnostics } from './diagnostics.js';
import type { Logger } from './logger.js';

export interface CliContext {
  cwd: string;
  logger: Logger;
}

export interface CommonArgs {
  config?: string;
  inputs?: string[];
  out?: string;
  quiet?: boolean;
  verbose?: boolean;
}

export interface Resolved {
  config: ResolvedConfig;
  inputs: string[];
  outDir: string;
}

/** Command-line inputs and --out win over the config; config paths are already absolute. */
export async function resolveRun(ctx: CliContext, args: CommonArgs): Promise<Resolved> {
  const config = await loadConfig({ cwd: ctx.cwd, configFile: args.config });
  const inputs = args.inputs && args.inputs.length > 0 ? args.inputs.map((p) => resolve(ctx.cwd, p)) : config.inputs.map((p) => resolve(ctx.cwd, p));
  const outDir = resolve(ctx.cwd, args.out ?? config.out);
  return { config: { ...config, inputs, out: outDir }, inputs, outDir };
}

/** Input errors stop the run (exit 2) before anything is written; warnings are printed and the run goes on. */
export function reportInputDiagnostics(ctx: CliContext, analysis: AnalysisResult, extra: Diagnostic[] = []): void {
  const located = locateDiagnostics([...analysis.diagnostics, ...extra], analysis.docs);
  if (hasErrors(located)) throw new InputError(located);
  const shown = located.filter((d) => d.severity !== 'info');
  if (shown.length > 0) ctx.logger.info(renderDiagnostics(shown, ctx.logger.color));
  for (const d of located.filter((x) => x.severity === 'info')) ctx.logger.verbose(`${d.file ?? ''} ${d.code}: ${d.message}`);
}
