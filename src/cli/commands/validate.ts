/**
 * `idemgen validate`: each OpenAPI input against the official OpenAPI 2.0/3.0/3.1 schema. Exit 0 when
 * every document is valid, 1 when one is not, 2 when an input cannot be read or is not OpenAPI at all.
 */
import { InputError, diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { loadInputs } from '../../load/index.js';
import { isNoDocumentRun, noDocumentDiagnostic } from '../../load/no-documents.js';
import { toDiagnostic } from '../../emit/report/index.js';
import { validateDocument } from '../../validate/index.js';
import { resolveRun, type CliContext, type CommonArgs } from '../context.js';
import { renderDiagnostics } from '../diagnostics.js';
import { paint } from '../logger.js';

export interface ValidateArgs extends CommonArgs {
  format?: 'text' | 'json';
}

/** A broken in-document ref or a ref cycle makes a document invalid; a remote ref is legal, only not fetched. */
const INVALID_REF = new Set(['unresolved_ref', 'ref_cycle']);

interface FileResult {
  file: string;
  format: string;
  valid: boolean;
  diagnostics: Diagnostic[];
}

export async function validateCommand(ctx: CliContext, args: ValidateArgs): Promise<number> {
  const { inputs, outDir } = await resolveRun(ctx, args);
  const loaded = await loadInputs(inputs, { cwd: ctx.cwd, skip: [outDir] });
  if (isNoDocumentRun(inputs, loaded.docs.length, loaded.diagnostics))
    throw new InputError([await noDocumentDiagnostic(inputs, ctx.cwd)]);
  const unreadable = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (unreadable.length > 0) throw new InputError(unreadable);
  const openapi = loaded.docs.filter((d) => d.kind === 'openapi');
  if (openapi.length === 0) {
    throw new InputError([
      diagnostic(
        'no_openapi_input',
        'error',
        `No OpenAPI or Swagger document in ${inputs.join(', ')} (tool lists have no official schema to validate against).`,
      ),
    ]);
  }
  const results: FileResult[] = [];
  for (const doc of openapi) {
    ctx.logger.progress(`Validating ${doc.file}…`);
    const checked = await validateDocument(doc, loaded.diagnostics);
    const own = loaded.diagnostics
      .filter((d) => d.file === doc.file || doc.parts.includes(d.file ?? ''))
      .map((d) => (INVALID_REF.has(d.code) ? { ...d, severity: 'error' as const } : d));
    const diagnostics = [...own, ...checked.diagnostics].sort(byPlace);
    results.push({
      file: doc.file,
      format: doc.format,
      valid: !diagnostics.some((d) => d.severity === 'error'),
      diagnostics,
    });
    ctx.logger.verbose(`${doc.file}: validated in ${Math.round(checked.ms)} ms`);
  }
  for (const doc of loaded.docs.filter((d) => d.kind === 'tools'))
    ctx.logger.verbose(`${doc.file}: a tool list, not validated`);
  if (args.format === 'json') ctx.logger.out(JSON.stringify({ files: results.map(toJson) }, null, 2));
  else ctx.logger.out(renderText(results, ctx.logger.color));
  return results.every((r) => r.valid) ? 0 : 1;
}

function byPlace(a: Diagnostic, b: Diagnostic): number {
  return (
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.col ?? 0) - (b.col ?? 0) ||
    ((a.pointer ?? '') < (b.pointer ?? '') ? -1 : (a.pointer ?? '') > (b.pointer ?? '') ? 1 : 0)
  );
}

/** The same diagnostic fields as `idemgen audit --format json`. */
function toJson(r: FileResult) {
  const diagnostics = r.diagnostics.map(toDiagnostic);
  return { file: r.file, format: r.format, valid: r.valid, diagnostics };
}

function renderText(results: FileResult[], color: boolean): string {
  const lines: string[] = [];
  const problems = results.flatMap((r) => r.diagnostics);
  if (problems.length > 0) lines.push(renderDiagnostics(problems, color), '');
  for (const r of results) {
    const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
    lines.push(
      r.valid
        ? `${paint(color, 'green', '✔')} ${r.file}: valid ${r.format}`
        : `${paint(color, 'red', '✖')} ${r.file}: ${errors} error(s) against the ${r.format} schema`,
    );
  }
  return lines.join('\n');
}
