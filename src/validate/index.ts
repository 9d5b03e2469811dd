/**
 * `idemgen validate`: checks loaded OpenAPI documents against the official 2.0 / 3.0 / 3.1 JSON schemas
 * (and swagger-parser's Swagger 2.0 semantic rules) with `@apidevtools/swagger-parser`. It gets the
 * document we already read and bundled, never a path, and may not resolve anything itself: no network,
 * no files. swagger-parser is imported on first use (it pulls in Ajv and the schemas).
 */
import type { OpenAPI } from 'openapi-types';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LoadedDoc } from '../load/types.js';
import { isRef, resolvePointer } from '../ir/refs.js';
import { otherDiagnostics } from './other-errors.js';
import { schemaDiagnostics, type SchemaError } from './schema-errors.js';

/** Load codes of a broken `$ref` (see cli/strict.ts); the validator is told to skip those places. */
const BROKEN_REF = new Set(['unresolved_ref', 'remote_ref', 'ref_cycle']);
const PARKED = 'https://unresolved.invalid/';

export interface DocValidation {
  file: string;
  diagnostics: Diagnostic[];
  /** Wall time of the swagger-parser call (clone, dereference, schema and semantic checks). */
  ms: number;
}

/**
 * Validates one OpenAPI document. `loadDiagnostics` are the loader's: the broken refs of this file are
 * parked (see below) so that everything else is still checked.
 */
export async function validateDocument(doc: LoadedDoc, loadDiagnostics: readonly Diagnostic[]): Promise<DocValidation> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const where = { file: doc.file, locate: doc.locate };
  const started = performance.now();
  let diagnostics: Diagnostic[] = [];
  try {
    // swagger-parser dereferences in place: it gets a copy, so `doc.root` stays the bundled document.
    const copy = structuredClone(doc.root);
    parkBrokenRefs(copy, doc.file, loadDiagnostics);
    await new SwaggerParser().validate(copy as OpenAPI.Document, {
      resolve: { external: false, file: false, http: false },
      continueOnError: true,
    });
  } catch (err) {
    const details = (err as { details?: unknown }).details;
    diagnostics = Array.isArray(details) ? schemaDiagnostics(details as SchemaError[], doc.root, where) : otherDiagnostics(err, doc.root, where);
  }
  return { file: doc.file, diagnostics, ms: performance.now() - started };
}

/**
 * swagger-parser stops at the first `$ref` it cannot dereference, before any schema check. A broken ref
 * the loader reported is pointed at an address it is told not to resolve (no network, no files): it is
 * still a Reference Object to the schema check, and the loader's diagnostic stays the only one for it.
 */
function parkBrokenRefs(copy: unknown, file: string, loadDiagnostics: readonly Diagnostic[]): void {
  for (const d of loadDiagnostics) {
    if (d.file !== file || !BROKEN_REF.has(d.code) || d.pointer === undefined) continue;
    const holder = resolvePointer(copy, d.pointer.replace(/\/\$ref$/, ''));
    if (isRef(holder)) holder.$ref = PARKED;
  }
}
