/**
 * Stage 1: read the user's inputs into LoadedDocs. The only stage (with the CLI) that touches the
 * filesystem. Bad input never throws: every problem is a Diagnostic with a stable code.
 */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { Bundler } from './bundle.js';
import { detectDocument } from './detect.js';
import { discoverInputs, displayPath, type Candidate } from './discover.js';
import { isSource, sourceProblem, SourceCache, type Source } from './source.js';
import type { LoadedDoc } from './types.js';

export type { LoadedDoc } from './types.js';
export { toolListAt } from './detect.js';

export interface LoadResult {
  /** Sorted by file. */
  docs: LoadedDoc[];
  diagnostics: Diagnostic[];
}

/** `opts.skip`: folders a directory scan passes over, such as the output folder (discover.ts). */
export async function loadInputs(
  inputs: readonly string[],
  opts: { cwd?: string; skip?: readonly string[] } = {},
): Promise<LoadResult> {
  const cwd = opts.cwd ?? process.cwd();
  const { candidates, diagnostics } = await discoverInputs(inputs, cwd, opts.skip);
  const cache = new SourceCache((abs) => displayPath(abs, cwd));
  const docs: LoadedDoc[] = [];
  const referenced = new Set<string>();
  const leftovers: { candidate: Candidate; source: Source }[] = [];
  for (const candidate of candidates) {
    const source = await cache.read(candidate.abs);
    if (!isSource(source)) {
      diagnostics.push(source);
      continue;
    }
    const doc = loadSource(source, cache, diagnostics, referenced);
    if (doc) docs.push(doc);
    else if (doc === undefined) leftovers.push({ candidate, source });
  }
  for (const { candidate, source } of leftovers) {
    if (referenced.has(candidate.abs)) continue;
    diagnostics.push(...reportLeftover(candidate, source));
  }
  return { docs, diagnostics: dedupe(diagnostics) };
}

/**
 * A LoadedDoc, `null` when the file was handled with a diagnostic, `undefined` when it is not
 * recognisable on its own (a spec part, an empty or broken file: decided once all roots are bundled).
 */
function loadSource(
  source: Source,
  cache: SourceCache,
  diagnostics: Diagnostic[],
  referenced: Set<string>,
): LoadedDoc | null | undefined {
  if (!source.parsed?.ok) return undefined;
  const detection = detectDocument(source.parsed.value);
  const base = { file: source.display, syntax: source.syntax, locate: source.locate };
  switch (detection.kind) {
    case 'unknown':
      return undefined;
    case 'unsupported': {
      const where = { file: source.display, pointer: detection.pointer, ...source.locate(detection.pointer) };
      diagnostics.push(
        diagnostic(
          'unsupported_version',
          'error',
          `${source.display}: version ${detection.version} is not supported (OpenAPI 3.0/3.1 and Swagger 2.0 are)`,
          where,
        ),
      );
      return null;
    }
    case 'tools':
      return {
        ...base,
        kind: 'tools',
        format: detection.format,
        root: source.parsed.value,
        parts: [],
        tools: { pointer: detection.pointer, items: detection.items },
      };
    case 'openapi': {
      const bundler = new Bundler({ ...source, value: source.parsed.value }, (abs) => readPart(cache, abs));
      let root: unknown;
      try {
        root = bundler.bundle();
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
        // Nesting deep enough to exhaust the stack is the input's problem, reported like one.
        diagnostics.push(
          diagnostic('document_too_deep', 'error', `${source.display} is nested too deeply to process`, {
            file: source.display,
          }),
        );
        return null;
      }
      diagnostics.push(...bundler.diagnostics);
      for (const part of bundler.touched) referenced.add(part);
      const parts = [...bundler.parts]
        .map((abs) => cache.readSync(abs))
        .filter(isSource)
        .map((s) => s.display)
        .sort();
      return { ...base, kind: 'openapi', format: detection.format, root, parts };
    }
    default: {
      const never: never = detection;
      throw new Error(`unhandled detection ${JSON.stringify(never)}`);
    }
  }
}

function readPart(cache: SourceCache, abs: string) {
  const source = cache.readSync(abs);
  if (!isSource(source)) return source;
  const problem = sourceProblem(source, 'error');
  if (problem || !source.parsed?.ok) return problem ?? diagnostic('empty_file', 'error', `${source.display} is empty`);
  return { value: source.parsed.value, display: source.display, locate: source.locate };
}

function reportLeftover(candidate: Candidate, source: Source): Diagnostic[] {
  const file = source.display;
  const problem = sourceProblem(source, candidate.explicit ? 'error' : 'warning');
  if (problem) return [problem];
  if (candidate.explicit) {
    return [
      diagnostic(
        'unrecognized_input',
        'error',
        `${file} is neither an OpenAPI/Swagger document nor a tool list (MCP, OpenAI, Anthropic)`,
        { file },
      ),
    ];
  }
  return [
    diagnostic(
      'unrecognized_file',
      'info',
      `${file} skipped: neither a spec nor a tool list, and no spec references it`,
      { file },
    ),
  ];
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.code}\0${d.file}\0${d.pointer}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
