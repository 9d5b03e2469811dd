/**
 * The one problem a run with inputs but no document has: what was searched and what idemgen reads, in one
 * line. Without it `generate` would replace generated/ with an output that holds no client (and the
 * build would fail later, far from the cause).
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { displayPath } from './discover.js';

const SPEC_EXTENSIONS = /\.(json|ya?ml)$/i;

/** What idemgen reads, named in every no-document message. */
const ACCEPTED_INPUTS =
  'idemgen reads OpenAPI 3.0/3.1 and Swagger 2.0 documents and MCP, OpenAI or Anthropic tool lists, as .json, .yaml or .yml files';

/** Load codes a run without documents folds into the one line (a file's syntax error keeps its own report). */
const FOLDED_CODES: ReadonlySet<string> = new Set(['input_not_found', 'unrecognized_input', 'unrecognized_file']);

/** .json/.yaml/.yml files under `dir`, skipping dot-folders and node_modules like the scan does. */
async function countSpecFiles(dir: string, seen = new Set<string>()): Promise<number> {
  if (seen.has(dir)) return 0;
  seen.add(dir);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let n = 0;
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const abs = path.join(dir, e.name);
    const info = await stat(abs).catch(() => undefined);
    if (info?.isDirectory()) n += await countSpecFiles(abs, seen);
    else if (info?.isFile() && SPEC_EXTENSIONS.test(e.name)) n += 1;
  }
  return n;
}

/** One input as the message names it: `specs/ (no .json, .yaml or .yml file)`, `x.yaml (not found)`, … */
async function describeInput(input: string, cwd: string): Promise<string> {
  const abs = path.resolve(cwd, input);
  const shown = displayPath(abs, cwd);
  const info = await stat(abs).catch(() => undefined);
  if (info === undefined) return `${shown} (not found)`;
  if (!info.isDirectory()) return `${shown} (not a spec)`;
  const files = await countSpecFiles(abs);
  return files === 0
    ? `${shown}/ (no .json, .yaml or .yml file)`
    : `${shown}/ (${files} .json/.yaml file${files === 1 ? '' : 's'}, none a spec)`;
}

/** The `no_input_document` error for inputs that yielded no document. */
export async function noDocumentDiagnostic(inputs: readonly string[], cwd: string): Promise<Diagnostic> {
  const searched = await Promise.all(inputs.map((i) => describeInput(i, cwd)));
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
