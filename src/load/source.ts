/** One text file read from disk, parsed, with a lazy pointer → line/col lookup. */
import { readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { diagnostic, type Diagnostic, type Severity } from '../diagnostics/diagnostic.js';
import { parsePointer } from '../json-pointer/pointer.js';
import { LineIndex } from './line-index.js';
import { makeOffsetLocator, parseSource, syntaxOf, type ParseResult, type Syntax } from './parse.js';
import type { SourcePosition } from './types.js';

export interface Source {
  abs: string;
  display: string;
  syntax: Syntax;
  /** `undefined` when the file has no content at all (empty or whitespace). */
  parsed: ParseResult | undefined;
  locate(pointer: string): SourcePosition | undefined;
  /** Position of the syntax error when parsing failed. */
  errorAt?: SourcePosition;
}

export function makeSource(abs: string, display: string, text: string): Source {
  const syntax = syntaxOf(abs);
  const lines = new LineIndex(text);
  let offsetOf: ((segments: readonly string[]) => number | undefined) | undefined;
  const locate = (pointer: string): SourcePosition | undefined => {
    const segments = parsePointer(pointer);
    if (!segments) return undefined;
    offsetOf ??= makeOffsetLocator(text, syntax);
    const offset = offsetOf(segments);
    return offset === undefined ? undefined : lines.position(offset);
  };
  const parsed = text.trim() === '' ? undefined : parseSource(text, syntax);
  return {
    abs,
    display,
    syntax,
    parsed,
    locate: (pointer) => (parsed?.ok === false ? undefined : locate(pointer)),
    errorAt: parsed?.ok === false ? lines.position(parsed.offset) : undefined,
  };
}

/** The diagnostic for a file that has no usable content, or undefined when it parsed. */
export function sourceProblem(source: Source, severity: Severity): Diagnostic | undefined {
  const parsed = source.parsed;
  if (parsed === undefined)
    return diagnostic('empty_file', severity, `${source.display} is empty`, { file: source.display });
  if (parsed.ok) return undefined;
  const at = source.errorAt;
  const what = parsed.code === 'invalid_json' ? 'JSON' : 'YAML';
  return diagnostic(parsed.code, 'error', `${source.display} is not valid ${what}: ${parsed.message}`, {
    file: source.display,
    ...at,
  });
}

/**
 * Files up to this size are read as bytes and decoded whole; larger ones with an encoding, in pieces.
 * - Read with an encoding, Node decodes 512 KiB at a time into a rope that parsing then copies flat: Stripe's
 *   2.5 MB took 90 ms to read and parse that way, 70 ms decoded whole (and 9 MiB less memory).
 * - Decoded whole, the file's bytes stay in memory until V8's next full collection, which a run may never
 *   reach: Graph's 20 MB raised the run's peak by 18 MiB, for no time saved. GitHub's 13 MB costs 10 MiB.
 */
const WHOLE_DECODE_BYTES = 16 * 1024 * 1024;

/**
 * A file's text (a BOM and invalid sequences come out the same either way: `readFile(…, 'utf8')` decodes as
 * `toString`). One decoded whole is also read in one synchronous call: the promise API reads in 512 KiB pieces,
 * each a trip through libuv's thread pool with the process idle meanwhile (Stripe's 2.5 MB: ~8 ms of waiting,
 * where the synchronous read takes ~2 ms); the file is parsed at once afterwards, so nothing would run meanwhile.
 */
async function readText(abs: string): Promise<string> {
  if (statSync(abs).size <= WHOLE_DECODE_BYTES) return readFileSync(abs).toString('utf8');
  const file = await open(abs, 'r');
  try {
    return await file.readFile('utf8');
  } finally {
    await file.close();
  }
}

function readTextSync(abs: string): string {
  return statSync(abs).size <= WHOLE_DECODE_BYTES ? readFileSync(abs).toString('utf8') : readFileSync(abs, 'utf8');
}

/** Reads and caches sources by absolute path. */
export class SourceCache {
  private readonly cache = new Map<string, Source | Diagnostic>();

  constructor(private readonly display: (abs: string) => string) {}

  async read(abs: string): Promise<Source | Diagnostic> {
    const hit = this.cache.get(abs);
    if (hit) return hit;
    let result: Source | Diagnostic;
    try {
      result = makeSource(abs, this.display(abs), await readText(abs));
    } catch (err) {
      result = this.unreadable(abs, err);
    }
    this.cache.set(abs, result);
    return result;
  }

  /** Synchronous read for spec parts reached while bundling. */
  readSync(abs: string): Source | Diagnostic {
    const hit = this.cache.get(abs);
    if (hit) return hit;
    let result: Source | Diagnostic;
    try {
      result = makeSource(abs, this.display(abs), readTextSync(abs));
    } catch (err) {
      result = this.unreadable(abs, err);
    }
    this.cache.set(abs, result);
    return result;
  }

  /** Drops a file's text and parse tree once it is no longer needed (large corpora). */
  forget(abs: string): void {
    this.cache.delete(abs);
  }

  private unreadable(abs: string, err: unknown): Diagnostic {
    const code = (err as NodeJS.ErrnoException)?.code ?? 'EIO';
    const kind = code === 'ENOENT' ? 'input_not_found' : 'unreadable_file';
    return diagnostic(kind, 'error', `cannot read ${this.display(abs)} (${code})`, { file: this.display(abs) });
  }
}

export function isSource(v: Source | Diagnostic): v is Source {
  return 'abs' in v;
}
