/**
 * swagger-parser's non-schema failures → diagnostics: its Swagger 2.0 semantic checks (which stop at the
 * first problem and name the place as `/paths<path>/<method>` text, not as a JSON pointer), `$ref` errors
 * it collected, and anything else it throws (an OpenAPI version it does not know, for one).
 */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { appendPointer, formatPointer } from '../json-pointer/pointer.js';
import { isObject } from '../json-pointer/refs.js';
import { HTTP_METHODS } from '../ir/types.js';

type Where = { file: string; locate(pointer: string): { line: number; col: number } | undefined };

function at(where: Where, pointer: string | undefined): Omit<Diagnostic, 'code' | 'severity' | 'message'> {
  return pointer === undefined ? { file: where.file } : { file: where.file, pointer, ...where.locate(pointer) };
}

/** The operation (or path item) a semantic message names, as a pointer: the longest path key it mentions. */
function pointerInMessage(root: unknown, message: string): string | undefined {
  const paths = isObject(root) && isObject(root.paths) ? Object.keys(root.paths) : [];
  const named = paths.filter((p) => message.includes(`/paths${p}`)).sort((a, b) => b.length - a.length)[0];
  if (named !== undefined) {
    const rest = message.slice(message.indexOf(`/paths${named}`) + `/paths${named}`.length);
    const method = HTTP_METHODS.find((m) => rest.startsWith(`/${m}`));
    return method ? appendPointer('', 'paths', named, method) : appendPointer('', 'paths', named);
  }
  const duplicateId = /Duplicate operation id '([^']*)'/.exec(message)?.[1];
  return duplicateId === undefined ? undefined : lastOperationWithId(root, duplicateId);
}

/** swagger-parser names a duplicate operationId without a place; the second use is the one to change. */
function lastOperationWithId(root: unknown, id: string): string | undefined {
  const paths = isObject(root) && isObject(root.paths) ? root.paths : {};
  const uses: string[] = [];
  for (const [p, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (isObject(op) && op.operationId === id) uses.push(appendPointer('', 'paths', p, m, 'operationId'));
    }
  }
  return uses[1] ?? uses[0];
}

interface RefParserError {
  message: string;
  path?: unknown;
}

/** Everything swagger-parser threw other than a schema violation. */
export function otherDiagnostics(err: unknown, root: unknown, where: Where): Diagnostic[] {
  const e = err as { name?: string; message?: string; errors?: RefParserError[] };
  if (Array.isArray(e.errors)) {
    // Collected $ref errors: the loader found the same refs (unresolved_ref), so these only add what it missed.
    return e.errors.map((r) => {
      const pointer = Array.isArray(r.path) ? formatPointer(r.path.map(String)) : undefined;
      return diagnostic('spec_ref_error', 'error', r.message, at(where, pointer));
    });
  }
  const message = String(e.message ?? err).replace(/^Validation failed\.\s*/, '');
  if (e.name === 'SyntaxError' && /^Validation failed\./.test(String(e.message))) {
    return [diagnostic('spec_semantic_error', 'error', message, at(where, pointerInMessage(root, message)))];
  }
  return [
    diagnostic(
      'spec_not_validated',
      'error',
      `the validator could not check this document: ${message}`,
      at(where, undefined),
    ),
  ];
}
