/** `idemgen check`: regenerate in memory and byte-compare with the output folder; exit 1 when stale. */
import { analyze, emitAll } from '../../pipeline.js';
import { resolveRun, reportInputDiagnostics, type CliContext, type CommonArgs } from '../context.js';
import { compareOutput, displayPath } from '../output-dir.js';
import { paint } from '../logger.js';

export async function checkCommand(ctx: CliContext, args: CommonArgs): Promise<number> {
  const { config, inputs, outDir } = await resolveRun(ctx, args);
  const analysis = await analyze(inputs, config, ctx.cwd);
  const emitted = emitAll(analysis.plan, config);
  reportInputDiagnostics(ctx, analysis, emitted.diagnostics);
  const drift = compareOutput(outDir, emitted.files);
  const where = displayPath(outDir, ctx.cwd);
  const total = drift.missing.length + drift.extra.length + drift.changed.length;
  if (total === 0) {
    ctx.logger.info(`${paint(ctx.logger.color, 'green', '✔')} ${where}/ is up to date (${emitted.files.length} files).`);
    return 0;
  }
  const lines = [`${paint(ctx.logger.color, 'red', '✖')} ${where}/ is stale: ${total} file(s) differ from what idemgen generates.`];
  for (const p of drift.changed) lines.push(`  changed  ${where}/${p}`);
  for (const p of drift.missing) lines.push(`  missing  ${where}/${p}`);
  for (const p of drift.extra) lines.push(`  extra    ${where}/${p}`);
  lines.push('Run `idemgen generate` and commit the result.');
  ctx.logger.error(lines.join('\n'));
  return 1;
}
