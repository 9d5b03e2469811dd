/**
 * `idemgen validate`: checks loaded OpenAPI documents against the official 2.0 / 3.0 / 3.1 JSON schemas
 * (and swagger-parser's Swagger 2.0 semantic rules) with `@apidevtools/swagger-parser`. It gets the
 * document we already read and bundled, never a path, and may not resolve anything itself: no network,
 * no files. swagger-parser is imported on first use (it pulls in Ajv and the schemas).
 *
 * The schema check runs on the bundled document, not on a dereferenced copy as swagger-parser's
 * `validate` does: the official schemas accept Reference Objects, and after dereferencing one mistake in
 * a shared component is reported once per place that references it, and makes every `oneOf` alternative
 * at each of those places fail as well (a dozen errors for one typo, most at the wrong line).
 */
import type { OpenAPI } from 'openapi-types';
import { BROKEN_REF_CODES } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LoadedDoc } from '../load/types.js';
import { isRef, resolvePointer } from '../json-pointer/refs.js';
import { otherDiagnostics } from './other-errors.js';
import { schemaDiagnostics, type SchemaError } from './schema-errors.js';

const PARKED = 'https://unresolved.invalid/';

export interface DocValidation {
  file: string;
  diagnostics: Diagnostic[];
  /** Wall time of the checks (schema; for Swagger 2.0 also copy, dereference and semantic rules). */
  ms: number;
}

/**
 * Validates one OpenAPI document. `loadDiagnostics` are the loader's: the broken refs of this file are
 * parked (see below) so that everything else is still checked.
 */
export async function validateDocument(doc: LoadedDoc, loadDiagnostics: readonly Diagnostic[]): Promise<DocValidation> {
  const where = { file: doc.file, locate: doc.locate };
  const started = performance.now();
  const { default: validateSchema } = await import('@apidevtools/swagger-parser/lib/validators/schema.js');
  let diagnostics: Diagnostic[] = [];
  try {
    // Ajv only reads the document (no defaults, no removal), so no copy is needed here.
    validateSchema(doc.root);
  } catch (err) {
    const details = (err as { details?: unknown }).details;
    diagnostics = Array.isArray(details)
      ? schemaDiagnostics(details as SchemaError[], doc.root, where)
      : otherDiagnostics(err, doc.root, where);
  }
  // swagger-parser's semantic rules exist for Swagger 2.0 only (for 3.x its spec check returns at once),
  // and they run after its schema check passes, as in its own `validate`.
  if (diagnostics.length === 0 && doc.format === 'openapi2')
    diagnostics = await swaggerSemantics(doc, loadDiagnostics, where);
  return { file: doc.file, diagnostics, ms: performance.now() - started };
}

async function swaggerSemantics(
  doc: LoadedDoc,
  loadDiagnostics: readonly Diagnostic[],
  where: Parameters<typeof otherDiagnostics>[2],
): Promise<Diagnostic[]> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  // swagger-parser dereferences in place: it gets a copy, so `doc.root` stays the bundled document.
  const copy = structuredClone(doc.root);
  parkBrokenRefs(copy, doc.file, loadDiagnostics);
  try {
    await new SwaggerParser().validate(copy as OpenAPI.Document, {
      resolve: { external: false, file: false, http: false },
      continueOnError: true,
      validate: { schema: false, spec: true },
    });
    return [];
  } catch (err) {
    return otherDiagnostics(err, doc.root, where);
  }
}

/**
 * swagger-parser stops at the first `$ref` it cannot dereference, before any check. A broken ref the
 * loader reported is pointed at an address it is told not to resolve (no network, no files): it stays a
 * Reference Object, and the loader's diagnostic stays the only one for it.
 */
function parkBrokenRefs(copy: unknown, file: string, loadDiagnostics: readonly Diagnostic[]): void {
  for (const d of loadDiagnostics) {
    if (d.file !== file || !BROKEN_REF_CODES.has(d.code) || d.pointer === undefined) continue;
    const holder = resolvePointer(copy, d.pointer.replace(/\/\$ref$/, ''));
    if (isRef(holder)) holder.$ref = PARKED;
  }
}
