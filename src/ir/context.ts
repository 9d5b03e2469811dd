import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LoadedDoc } from '../load/types.js';
import type { RawDocument } from './raw.js';
import type { SpecFormat } from './types.js';
import { type ResolvedRef, resolveRefTarget } from '../json-pointer/refs.js';

/** What every OpenAPI transform receives: the document, its format and a diagnostic sink. */
export interface IrContext {
  doc: LoadedDoc;
  root: RawDocument;
  format: SpecFormat;
  diagnostics: Diagnostic[];
  /** Adds file, pointer and line/col to a diagnostic. */
  report(code: string, severity: Diagnostic['severity'], message: string, pointer: string): void;
  /**
   * Target of an in-document `$ref`, each ref resolved once per build (Graph's 11,000 operations share a
   * few response and parameter refs). The document is not edited while the model is built.
   */
  refTarget(ref: string): ResolvedRef | undefined;
}

/** `refTarget` for a context: `resolveRefTarget` in `root`, remembered by ref. */
export function refTargets(root: unknown): (ref: string) => ResolvedRef | undefined {
  const known = new Map<string, ResolvedRef | undefined>();
  return (ref) => {
    if (known.has(ref)) return known.get(ref);
    const target = resolveRefTarget(root, ref);
    known.set(ref, target);
    return target;
  };
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
