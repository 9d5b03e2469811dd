/** `idemgen check`: regenerate in memory and byte-compare with the output folder; exit 1 when stale. */
import { analyze, emitEach } from '../../pipeline.js';
import { resolveRun, reportInputDiagnostics, type CliContext, type CommonArgs } from '../context.js';
import { compareSink, displayPath } from '../output-dir.js';
import { paint } from '../logger.js';

export async function checkCommand(ctx: CliContext, args: CommonArgs): Promise<number> {
  const { config, inputs, outDir } = await resolveRun(ctx, args);
  const analysis = await analyze(inputs, config, ctx.cwd);
  // Each file is compared as soon as it is complete and then dropped (Graph-sized output is ~200 MB).
  const compare = compareSink(outDir);
  const emitDiagnostics = await emitEach(analysis.plan, config, compare.sink);
  reportInputDiagnostics(ctx, analysis, emitDiagnostics);
  const drift = compare.report();
  const where = displayPath(outDir, ctx.cwd);
  const total = drift.missing.length + drift.extra.length + drift.changed.length;
  if (total === 0) {
    ctx.logger.info(`${paint(ctx.logger.color, 'green', '✔')} ${where}/ is up to date (${compare.count()} files).`);
    return 0;
  }
  const lines = [
    `${paint(ctx.logger.color, 'red', '✖')} ${where}/ is stale: ${total} file(s) differ from what idemgen generates.`,
  ];
  for (const p of drift.changed) lines.push(`  changed  ${where}/${p}`);
  for (const p of drift.missing) lines.push(`  missing  ${where}/${p}`);
  for (const p of drift.extra) lines.push(`  extra    ${where}/${p}`);
  lines.push('Run `idemgen generate` and commit the result.');
  ctx.logger.error(lines.join('\n'));
  return 1;
}
