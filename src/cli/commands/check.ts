/**
 * `idemgen check`: regenerate in memory and byte-compare with the output folder; exit 1 when stale. With
 * `--baseline`, also compare retry safety with a previous audit or spec and exit 1 on the changes named by
 * `--fail-on-change` (by default the ones that make an agent's retries less safe).
 */
import { analyze, emitEach } from '../../pipeline.js';
import { buildAuditModel } from '../../emit/report/index.js';
import { diffAudits, trippedChanges, type ChangeKind } from '../../emit/report/changes.js';
import { countsText, renderChangesText } from '../../emit/report/changes-render.js';
import { changeRules, loadBaseline } from './audit-baseline.js';
import { resolveRun, reportInputDiagnostics, type CliContext, type CommonArgs } from '../context.js';
import { compareSink, displayPath } from '../output-dir.js';
import { paint } from '../logger.js';

export interface CheckArgs extends CommonArgs {
  baseline?: string;
  failOnChange?: string;
}

/** What `check --baseline` fails on when `--fail-on-change` is not given. */
export const CHECK_FAIL_ON_CHANGE = 'fail-closed,lost-key,lost-inverse';

export async function checkCommand(ctx: CliContext, args: CheckArgs): Promise<number> {
  const { config, inputs, outDir, configInputs } = await resolveRun(ctx, args);
  const rules: ChangeKind[] = args.baseline !== undefined ? changeRules(args.failOnChange ?? CHECK_FAIL_ON_CHANGE) : [];
  const analysis = await analyze(inputs, config, ctx.cwd, [], { checkOverrides: configInputs });
  let changed = 0;
  if (args.baseline !== undefined) {
    const changes = diffAudits(
      await loadBaseline(args.baseline, config, ctx.cwd),
      buildAuditModel(analysis.plan),
      args.baseline,
    );
    ctx.logger.info(renderChangesText(changes, args).join('\n'));
    const tripped = trippedChanges(changes, rules);
    if (tripped.length > 0) {
      changed = 1;
      ctx.logger.error(
        `${paint(ctx.logger.color, 'red', '✖')} --fail-on-change ${rules.join(',')}: ${countsText(tripped)}`,
      );
    }
  }
  // Each file is compared as soon as it is complete and then dropped (Graph-sized output is ~200 MB).
  const compare = compareSink(outDir);
  const emitDiagnostics = await emitEach(analysis.plan, config, compare.sink);
  reportInputDiagnostics(ctx, analysis, emitDiagnostics);
  const drift = compare.report();
  const where = displayPath(outDir, ctx.cwd);
  const total = drift.missing.length + drift.extra.length + drift.changed.length;
  if (total === 0) {
    ctx.logger.info(`${paint(ctx.logger.color, 'green', '✔')} ${where}/ is up to date (${compare.count()} files).`);
    return changed;
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
