/**
 * `idemgen audit`: classify and report, like a linter. Exit 1 when findings reach --fail-on.
 * One report for every source kind: specs and tool lists (loader), agent code (audit-code), live MCP
 * servers (audit-mcp); code inputs are routed by extension or tsconfig content, the rest as before.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { analyze } from '../../pipeline.js';
import { auditFailed, renderAudit } from '../../emit/report/index.js';
import { auditCode, CODE_RULES, routeInputs } from '../../audit-code/index.js';
import { annotationFindings, auditLiveServers } from '../../audit-mcp/index.js';
import { ConfigError, diagnostic, InputError } from '../../diagnostics/diagnostic.js';
import type { SourceKind } from '../../emit/report/index.js';
import { locateDiagnostics } from '../diagnostics.js';
import { resolveRun, reportInputDiagnostics, type CliContext, type CommonArgs } from '../context.js';
import { VERSION } from '../version.js';

export type AuditFormat = 'text' | 'markdown' | 'json' | 'sarif';
export const AUDIT_FORMATS: readonly AuditFormat[] = ['text', 'markdown', 'json', 'sarif'];

export interface AuditArgs extends CommonArgs {
  format?: AuditFormat;
  output?: string[];
  failOn?: 'error' | 'warning' | 'info' | 'none';
  mcp?: string[];
  mcpUrl?: string[];
  header?: string[];
  mcpTimeout?: number;
  save?: string;
}

export const DEFAULT_MCP_TIMEOUT_MS = 30_000;
const CODE_RULE_IDS = new Set(CODE_RULES.map((r) => r.id));

const BY_EXTENSION: Record<string, AuditFormat> = {
  '.json': 'json',
  '.sarif': 'sarif',
  '.md': 'markdown',
  '.txt': 'text',
};

/** With several -o files the format comes from each extension; with one, --format wins. */
function formatFor(file: string, args: AuditArgs): AuditFormat {
  if (args.format && (args.output?.length ?? 0) <= 1) return args.format;
  const fmt = BY_EXTENSION[extname(file).toLowerCase()];
  if (!fmt) {
    throw new ConfigError([
      diagnostic(
        'unknown_report_format',
        'error',
        `Cannot tell the report format of ${file} from its extension; use .json, .sarif, .md or .txt, or pass --format with a single -o.`,
      ),
    ]);
  }
  return fmt;
}

export async function auditCommand(ctx: CliContext, args: AuditArgs): Promise<number> {
  const live = (args.mcp?.length ?? 0) + (args.mcpUrl?.length ?? 0) > 0;
  // Live servers alone audit just those servers; the config's spec inputs join only when named.
  const { config, inputs } = await resolveRun(ctx, args);
  const routed = routeInputs(live && !args.inputs?.length ? [] : inputs, ctx.cwd);
  if (routed.diagnostics.length > 0) throw new InputError(routed.diagnostics);
  const liveDocs = live
    ? (
        await auditLiveServers({
          mcp: args.mcp,
          mcpUrl: args.mcpUrl,
          header: args.header,
          timeoutMs: args.mcpTimeout ?? DEFAULT_MCP_TIMEOUT_MS,
          save: args.save,
          cwd: ctx.cwd,
          env: process.env,
          clientVersion: VERSION,
        })
      ).docs
    : [];
  if (args.save !== undefined && !live)
    throw new ConfigError([diagnostic('invalid_mcp_option', 'error', '--save needs --mcp or --mcp-url')]);
  // Agent code is something to audit: a folder of code with only a package.json beside it is no mistake.
  const analysis = await analyze(routed.specs, config, ctx.cwd, liveDocs, {
    requireDocuments: routed.code.length === 0,
  });
  reportInputDiagnostics(ctx, { ...analysis, diagnostics: analysis.diagnostics.filter((d) => d.severity === 'error') });
  const code = auditCode(routed.code, config, ctx.cwd);
  const inputErrors = code.diagnostics.filter((d) => !CODE_RULE_IDS.has(d.code));
  if (inputErrors.length > 0) throw new InputError(inputErrors);
  const annotations = analysis.docs.flatMap((d) => annotationFindings(d, config));
  const diagnostics = [
    ...locateDiagnostics([...analysis.diagnostics, ...analysis.plan.diagnostics], analysis.docs),
    ...annotations,
    ...code.diagnostics,
  ];
  const plan = { ...analysis.plan, diagnostics };
  const liveFiles = new Set(liveDocs.map((d) => d.file));
  const sources = new Map<string, SourceKind>([
    ...analysis.docs.map((d): [string, SourceKind] => [
      d.file,
      liveFiles.has(d.file) ? 'mcp' : d.kind === 'openapi' ? 'spec' : 'tools',
    ]),
    ...code.files.map((f): [string, SourceKind] => [f, 'code']),
  ]);
  const outputs = args.output ?? [];
  if (outputs.length === 0) {
    ctx.logger.out(
      renderAudit(plan, args.format ?? 'text', {
        color: ctx.logger.color,
        verbose: args.verbose,
        quiet: args.quiet,
        toolVersion: VERSION,
        sources,
      }),
    );
  } else {
    for (const file of outputs) {
      const target = resolve(ctx.cwd, file);
      mkdirSync(dirname(target), { recursive: true });
      const text = renderAudit(plan, formatFor(file, args), {
        color: false,
        verbose: args.verbose,
        toolVersion: VERSION,
        sources,
      });
      writeFileSync(target, text.endsWith('\n') ? text : `${text}\n`);
      ctx.logger.info(`wrote ${file}`);
    }
  }
  return auditFailed(plan, args.failOn ?? 'error') ? 1 : 0;
}
