/**
 * `generate --strict`: broken references are warnings by default (the schema degrades to `unknown`, every
 * other operation is still generated); a strict run turns them into errors, so nothing is written (exit 2).
 */
import { BROKEN_REF_CODES } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export function strictErrors(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics
    .filter((d) => d.severity !== 'error' && BROKEN_REF_CODES.has(d.code))
    .map((d) => ({
      ...d,
      severity: 'error' as const,
      hint: 'generate without --strict to emit this schema as unknown',
    }));
}
