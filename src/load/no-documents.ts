/**
 * The one problem a run with inputs but no document has: what was searched and what idemgen reads, in one
 * line. Without it `generate` would replace generated/ with an output that holds no client (and the
 * build would fail later, far from the cause).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { displayPath } from './discover.js';
import { specFilesIn } from '../spec-files.js';

/** What idemgen reads, named in every no-document message. */
const ACCEPTED_INPUTS =
  'idemgen reads OpenAPI 3.0/3.1 and Swagger 2.0 documents and MCP, OpenAI or Anthropic tool lists, as .json, .yaml or .yml files';

/** Load codes a run without documents folds into the one line (a file's syntax error keeps its own report). */
const FOLDED_CODES: ReadonlySet<string> = new Set(['input_not_found', 'unrecognized_input', 'unrecognized_file']);

/** One input as the message names it: `specs/ (no .json, .yaml or .yml file)`, `x.yaml (not found)`, … */
async function describeInput(input: string, cwd: string, skip: ReadonlySet<string>): Promise<string> {
  const abs = path.resolve(cwd, input);
  const shown = displayPath(abs, cwd);
  const info = await stat(abs).catch(() => undefined);
  if (info === undefined) return `${shown} (not found)`;
  if (!info.isDirectory()) return `${shown} (not a spec)`;
  const files = specFilesIn(abs, skip).length;
  return files === 0
    ? `${shown}/ (no .json, .yaml or .yml file)`
    : `${shown}/ (${files} .json/.yaml file${files === 1 ? '' : 's'}, none a spec)`;
}

/** The `no_input_document` error for inputs that yielded no document (`skip`: the folders the scan passed over). */
export async function noDocumentDiagnostic(
  inputs: readonly string[],
  cwd: string,
  skip: readonly string[] = [],
): Promise<Diagnostic> {
  const skipped = new Set(skip.map((s) => path.resolve(s)));
  const searched = await Promise.all(inputs.map((i) => describeInput(i, cwd, skipped)));
  return diagnostic('no_input_document', 'error', `no spec or tool list in ${searched.join(', ')}: ${ACCEPTED_INPUTS}`);
}

/**
 * Whether a load that found no document should be reported as `no_input_document`: it had inputs, and its
 * errors (if any) are only about paths that do not exist or hold no spec.
 */
export function isNoDocumentRun(inputs: readonly string[], docs: number, diagnostics: readonly Diagnostic[]): boolean {
  return (
    inputs.length > 0 && docs === 0 && diagnostics.every((d) => d.severity !== 'error' || FOLDED_CODES.has(d.code))
  );
}
