/** `idemgen audit`: classify and report, like a linter. Exit 1 when findings reach --fail-on. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { analyze } from '../../pipeline.js';
import { auditFailed, renderAudit } from '../../emit/report/index.js';
import { ConfigError, diagnostic } from '../../diagnostics/diagnostic.js';
import { locateDiagnostics } from '../diagnostics.js';
import { resolveRun, reportInputDiagnostics, type CliContext, type CommonArgs } from '../context.js';
import { VERSION } from '../version.js';

export type AuditFormat = 'text' | 'markdown' | 'json' | 'sarif';
export const AUDIT_FORMATS: readonly AuditFormat[] = ['text', 'markdown', 'json', 'sarif'];

export interface AuditArgs extends CommonArgs {
  format?: AuditFormat;
  output?: string[];
  failOn?: 'error' | 'warning' | 'info' | 'none';
}

const BY_EXTENSION: Record<string, AuditFormat> = { '.json': 'json', '.sarif': 'sarif', '.md': 'markdown', '.txt': 'text' };

/** With several -o files the format comes from each extension; with one, --format wins. */
function formatFor(file: string, args: AuditArgs): AuditFormat {
  if (args.format && (args.output?.length ?? 0) <= 1) return args.format;
  const fmt = BY_EXTENSION[extname(file).toLowerCase()];
  if (!fmt) {
    throw new ConfigError([diagnostic('unknown_report_format', 'error', `Cannot tell the report format of ${file} from its extension; use .json, .sarif, .md or .txt, or pass --format with a single -o.`)]);
  }
  return fmt;
}

export async function auditCommand(ctx: CliContext, args: AuditArgs): Promise<number> {
  const { config, inputs } = await resolveRun(ctx, args);
  const analysis = await analyze(inputs, config, ctx.cwd);
  reportInputDiagnostics(ctx, { ...analysis, diagnostics: analysis.diagnostics.filter((d) => d.severity === 'error') });
  const diagnostics = locateDiagnostics([...analysis.diagnostics, ...analysis.plan.diagnostics], analysis.docs);
  const plan = { ...analysis.plan, diagnostics };
  const outputs = args.output ?? [];
  if (outputs.length === 0) {
    ctx.logger.out(renderAudit(plan, args.format ?? 'text', { color: ctx.logger.color, verbose: args.verbose, quiet: args.quiet, toolVersion: VERSION }));
  } else {
    for (const file of outputs) {
      const target = resolve(ctx.cwd, file);
      mkdirSync(dirname(target), { recursive: true });
      const text = renderAudit(plan, formatFor(file, args), { color: false, verbose: args.verbose, toolVersion: VERSION });
      writeFileSync(target, text.endsWith('\n') ? text : `${text}\n`);
      ctx.logger.info(`wrote ${file}`);
    }
  }
  return auditFailed(plan, args.failOn ?? 'error') ? 1 : 0;
}
