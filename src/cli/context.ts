/** What every command gets: where it runs, how it prints, and the resolved config + inputs. */
import { resolve } from 'node:path';
import { terminalText } from '../escape/index.js';
import { loadConfig } from '../config/load.js';
import { configExtensions } from '../emit/registry.js';
import type { ResolvedConfig } from '../config/types.js';
import { ConfigError, InputError, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { AnalysisResult } from '../pipeline.js';
import { locateDiagnostics, renderDiagnostics } from './diagnostics.js';
import type { Logger } from './logger.js';
import { sizeYoungGeneration } from './young-generation.js';

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
  /**
   * The inputs are the config's (none on the command line): only then is an override that names no operation
   * a mistake worth a warning; a run over other files may simply not contain it.
   */
  configInputs: boolean;
}

/**
 * Command-line inputs and --out win over the config; config paths are already absolute. Every batch command
 * starts here, so this is also where the process's young generation is sized for the inputs (young-generation.ts).
 */
export async function resolveRun(ctx: CliContext, args: CommonArgs): Promise<Resolved> {
  const config = await loadRunConfig(ctx, args);
  const given = args.inputs ?? [];
  const configInputs = given.length === 0;
  const inputs = (configInputs ? config.inputs : given).map((p) => resolve(ctx.cwd, p));
  const outDir = resolve(ctx.cwd, args.out ?? config.out);
  sizeYoungGeneration(inputs);
  return { config: { ...config, inputs, out: outDir }, inputs, outDir, configInputs };
}

/** The config, its mistakes placed at their line in the file. */
async function loadRunConfig(ctx: CliContext, args: CommonArgs): Promise<ResolvedConfig> {
  try {
    return await loadConfig({ cwd: ctx.cwd, configFile: args.config, extensions: configExtensions() });
  } catch (err) {
    // Loaded only for a config with mistakes: a start (serve's from its cache above all) loads no loader module.
    if (err instanceof ConfigError) {
      const { locateInTextFiles } = await import('../load/text-positions.js');
      throw new ConfigError(
        locateInTextFiles(
          err.diagnostics,
          err.diagnostics.map((d) => d.file),
        ),
      );
    }
    throw err;
  }
}

/** At most this many diagnostics of one code are printed by generate/check; `idemgen audit` lists all. */
const PRINT_LIMIT_PER_CODE = 10;

/** Input errors stop the run (exit 2) before anything is written; warnings are printed and the run goes on. */
export function reportInputDiagnostics(ctx: CliContext, analysis: AnalysisResult, extra: Diagnostic[] = []): void {
  const all = [...analysis.diagnostics, ...extra];
  const errors = all.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new InputError(locateDiagnostics(errors, analysis.docs));
  // Locating costs a scan of the source text, so only the diagnostics that will be printed are located.
  const perCode = new Map<string, number>();
  const shown: Diagnostic[] = [];
  for (const d of all.filter((x) => x.severity === 'warning')) {
    const n = (perCode.get(d.code) ?? 0) + 1;
    perCode.set(d.code, n);
    if (n <= PRINT_LIMIT_PER_CODE) shown.push(d);
  }
  if (shown.length > 0) {
    const more = [...perCode]
      .filter(([, n]) => n > PRINT_LIMIT_PER_CODE)
      .map(([code, n]) => `… and ${n - PRINT_LIMIT_PER_CODE} more ${code} (run \`idemgen audit\` to list all)`);
    ctx.logger.info([renderDiagnostics(locateDiagnostics(shown, analysis.docs), ctx.logger.color), ...more].join('\n'));
  }
  for (const d of all.filter((x) => x.severity === 'info'))
    ctx.logger.verbose(terminalText(`${d.file ?? ''} ${d.code}: ${d.message}`));
}
