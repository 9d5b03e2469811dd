/**
 * `idemgen audit`: classify and report, like a linter. Exit 1 when findings reach --fail-on.
 * One report for every source kind: specs and tool lists (loader), agent code (audit-code), live MCP
 * servers (audit-mcp); code inputs are routed by extension or tsconfig content, the rest as before.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyze, emitEach } from '../../pipeline.js';
import { auditFailed, buildAuditModel, renderAudit, type RenderOptions } from '../../emit/report/index.js';
import { diffAudits, trippedChanges, type ChangeKind } from '../../emit/report/changes.js';
import { countsText } from '../../emit/report/changes-render.js';
import { opId } from '../../emit/report/html.js';
import { ARTIFACTS } from '../../emit/registry.js';
import type { FileSink } from '../../emit/types.js';
import type { Plan } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import type { Diagnostic, Severity } from '../../diagnostics/diagnostic.js';
import { changeRules, loadBaseline } from './audit-baseline.js';
import { auditCode, CODE_RULES, routeInputs } from '../../audit-code/index.js';
import { annotationFindings, auditLiveServers } from '../../audit-mcp/index.js';
import { ConfigError, diagnostic, InputError } from '../../diagnostics/diagnostic.js';
import type { SourceKind } from '../../emit/report/index.js';
import { locateDiagnostics } from '../diagnostics.js';
import { resolveRun, reportInputDiagnostics, type CliContext, type CommonArgs } from '../context.js';
import { VERSION } from '../version.js';
import { outputWriteError } from '../output-dir.js';

export type AuditFormat = 'text' | 'markdown' | 'json' | 'sarif' | 'html';
export const AUDIT_FORMATS: readonly AuditFormat[] = ['text', 'markdown', 'json', 'sarif', 'html'];

export interface AuditArgs extends CommonArgs {
  format?: AuditFormat;
  output?: string[];
  failOn?: 'error' | 'warning' | 'info' | 'none';
  mcp?: string[];
  mcpUrl?: string[];
  header?: string[];
  mcpTimeout?: number;
  save?: string;
  /** A previous audit JSON or a spec: report what changed for retry safety. */
  baseline?: string;
  /** Change kinds (changes.ts) that make the run exit 1, comma-separated. */
  failOnChange?: string;
}

export const DEFAULT_MCP_TIMEOUT_MS = 30_000;
const CODE_RULE_IDS = new Set(CODE_RULES.map((r) => r.id));

const BY_EXTENSION: Record<string, AuditFormat> = {
  '.json': 'json',
  '.sarif': 'sarif',
  '.md': 'markdown',
  '.txt': 'text',
  '.html': 'html',
  '.htm': 'html',
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
        `Cannot tell the report format of ${file} from its extension; use .json, .sarif, .md, .html or .txt, or pass --format with a single -o.`,
      ),
    ]);
  }
  return fmt;
}

/**
 * One `--output` report, written to `target`: never over an input or the config of the run (the report
 * would lose the spec it reports on), and a place that cannot be written is a diagnostic.
 */
function writeReport(file: string, target: string, text: string, sources: readonly string[]): void {
  if (sources.some((s) => resolve(s) === target))
    throw new InputError([
      diagnostic('output_is_input', 'error', `--output ${file} is an input of this run: the report would replace it`, {
        file: target,
        hint: 'write the report to a file of its own (audit.md, audit.sarif, audit.html)',
      }),
    ]);
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text.endsWith('\n') ? text : `${text}\n`);
  } catch (err) {
    throw outputWriteError(err, target) ?? err;
  }
}

export async function auditCommand(ctx: CliContext, args: AuditArgs): Promise<number> {
  const live = (args.mcp?.length ?? 0) + (args.mcpUrl?.length ?? 0) > 0;
  // Live servers alone audit just those servers; the config's spec inputs join only when named.
  const { config, inputs, configInputs } = await resolveRun(ctx, args);
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
    checkOverrides: configInputs,
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
  const liveFiles = new Set(liveDocs.map((d) => d.file));
  const sources = new Map<string, SourceKind>([
    ...analysis.docs.map((d): [string, SourceKind] => [
      d.file,
      liveFiles.has(d.file) ? 'mcp' : d.kind === 'openapi' ? 'spec' : 'tools',
    ]),
    ...code.files.map((f): [string, SourceKind] => [f, 'code']),
  ]);
  const failOnChange = changeRules(args.failOnChange);
  if (failOnChange.length > 0 && args.baseline === undefined)
    throw new ConfigError([diagnostic('invalid_baseline_option', 'error', '--fail-on-change needs --baseline')]);
  const emitted = analysis.docs.length > 0 ? await generateDiagnostics(analysis.plan, config) : [];
  const plan = { ...analysis.plan, diagnostics: [...diagnostics, ...locateDiagnostics(emitted, analysis.docs)] };
  const changes =
    args.baseline !== undefined
      ? diffAudits(await loadBaseline(args.baseline, config, ctx.cwd), buildAuditModel(plan), args.baseline)
      : undefined;
  const outputs = args.output ?? [];
  const wantsHtml = outputs.length === 0 ? args.format === 'html' : outputs.some((f) => formatFor(f, args) === 'html');
  const lines = wantsHtml ? operationLines(plan, analysis.docs) : undefined;
  const base: RenderOptions = { verbose: args.verbose, toolVersion: VERSION, sources, changes, lines };
  if (outputs.length === 0) {
    ctx.logger.out(
      renderAudit(plan, args.format ?? 'text', {
        ...base,
        color: ctx.logger.color,
        quiet: args.quiet,
        fileHref: (f) => pathToFileURL(resolve(ctx.cwd, f)).href,
      }),
    );
  } else {
    const sources = [...inputs, ...(config.configFile ? [config.configFile] : [])];
    for (const file of outputs) {
      const target = resolve(ctx.cwd, file);
      const text = renderAudit(plan, formatFor(file, args), {
        ...base,
        color: false,
        fileHref: (f) => relativeHref(dirname(target), resolve(ctx.cwd, f)),
      });
      writeReport(file, target, text, sources);
      ctx.logger.info(`wrote ${file}`);
    }
  }
  const failOn = args.failOn ?? 'error';
  let failed = false;
  if (failOn !== 'none' && auditFailed(plan, failOn)) {
    failed = true;
    ctx.logger.error(failOnLine(plan.diagnostics, failOn));
  }
  if (changes) {
    const tripped = trippedChanges(changes, failOnChange);
    if (tripped.length > 0) {
      failed = true;
      ctx.logger.error(changeFailLine(failOnChange, tripped));
    }
  }
  return failed ? 1 : 0;
}

/**
 * The findings `generate` reports (tool schemas, clients, SQL) without writing anything, so a CI audit sees
 * every warning a build would print (`tools_openai_json_encoded` and the like). The report artifact is
 * left out: it is this audit.
 */
async function generateDiagnostics(plan: Plan, config: ResolvedConfig): Promise<Diagnostic[]> {
  const nowhere: FileSink = { file: () => ({ write() {}, end() {} }) };
  const artifacts = (config.artifacts ?? ARTIFACTS.filter((a) => a.byDefault).map((a) => a.name)).filter(
    (name) => name !== 'report',
  );
  return emitEach(plan, { ...config, artifacts }, nowhere);
}

/** Each operation's position in its spec (`line:col`), for the HTML report's links. */
function operationLines(
  plan: Plan,
  docs: readonly { file: string; locate(pointer: string): { line: number; col: number } | undefined }[],
): Map<string, string> {
  const byFile = new Map(docs.map((d) => [d.file, d]));
  const out = new Map<string, string>();
  for (const api of plan.apis)
    for (const e of api.entries) {
      const src = e.operation.source;
      const at = byFile.get(src.file)?.locate(src.pointer);
      if (at !== undefined) out.set(opId(src.file, e.operation.key), `${at.line}:${at.col}`);
    }
  return out;
}

/** A link from the report's folder to a spec file (relative, so the two can move together). */
function relativeHref(from: string, to: string): string {
  return relative(from, to)
    .split(sep)
    .map((seg) => encodeURIComponent(seg))
    .join('/');
}

const AT_OR_ABOVE: Record<'error' | 'warning' | 'info', readonly Severity[]> = {
  error: ['error'],
  warning: ['error', 'warning'],
  info: ['error', 'warning', 'info'],
};
const PLURAL: Record<Severity, string> = { error: 'errors', warning: 'warnings', info: 'notes' };

/** `✖ --fail-on warning: 3 findings at or above warning (1 error, 2 warnings)`: what tripped, and how many. */
function failOnLine(diagnostics: readonly Diagnostic[], failOn: 'error' | 'warning' | 'info'): string {
  const levels = AT_OR_ABOVE[failOn];
  const counts = levels.map((sv) => [sv, diagnostics.filter((d) => d.severity === sv).length] as const);
  const total = counts.reduce((n, [, c]) => n + c, 0);
  return `✖ --fail-on ${failOn}: ${total} finding${total === 1 ? '' : 's'} at or above ${failOn} (${counts.map(([sv, c]) => `${c} ${PLURAL[sv]}`).join(', ')})`;
}

/** `✖ --fail-on-change fail-closed,lost-key: fail-closed 2, lost-key 1`. */
function changeFailLine(rules: readonly ChangeKind[], tripped: readonly [ChangeKind, number][]): string {
  return `✖ --fail-on-change ${rules.join(',')}: ${countsText(tripped)}`;
}
