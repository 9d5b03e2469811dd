import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LoadedDoc } from '../load/types.js';
import type { RawDocument } from './raw.js';
import type { SpecFormat } from './types.js';

/** What every OpenAPI transform receives: the document, its format and a diagnostic sink. */
export interface IrContext {
  doc: LoadedDoc;
  root: RawDocument;
  format: SpecFormat;
  diagnostics: Diagnostic[];
  /** Adds file, pointer and line/col to a diagnostic. */
  report(code: string, severity: Diagnostic['severity'], message: string, pointer: string): void;
}

export function extensionsOf(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Only the `x-*` keys are sorted (most operations have none): same order, a fraction of the work.
  for (const key of Object.keys(value)
    .filter((k) => k.startsWith('x-'))
    .sort())
    out[key] = value[key];
  return out;
}

export function stringOrUndefined(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function stringArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
