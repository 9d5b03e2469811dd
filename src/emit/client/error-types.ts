/**
 * `XErrors`: the error responses a spec declares for one operation, status → body type (`404: NotFound`,
 * `"4XX": …`, `default: Error`). The runtime's `HttpErrorOf<XErrors>` turns it into an `HttpStatusError`
 * whose `status` narrows `body`; the client's static `errorOf` hands it out.
 */
import type { CodeWriter } from './code-writer.js';
import type { HttpOperation, ResponseSpec } from '../../ir/types.js';
import { tsNumber } from '../../escape/index.js';
import { errorResponses, pickResponseContent } from './media.js';
import { propertyKey, type NameTable } from './names.js';
import { typeAliasStatement, writeObjectType, type TypeMember } from './object-type.js';
import { docInline, writeSchemaType, type TypeWriterContext } from './schema-type.js';

/** `404` as a number key (so `HttpErrorOf` gives `status: 404`); a range or `default` as a string key. */
function statusKey(status: string): string {
  return /^[1-5][0-9]{2}$/.test(status) ? tsNumber(Number(status)) : propertyKey(status);
}

/**
 * The body as the runtime reads an error answer (by its content type): JSON parsed, text as a string,
 * bytes as a Blob. A response declared without content may still carry one: `unknown`.
 */
function bodyType(r: ResponseSpec, ctx: TypeWriterContext): string | ((w: CodeWriter) => void) {
  const picked = pickResponseContent(r.content);
  if (picked === undefined) return 'unknown';
  if (picked.parse === 'blob') return 'Blob';
  if (picked.parse === 'text') return 'string';
  return (w) => writeSchemaType(w, picked.media.schema, ctx);
}

/**
 * `XErrors` of an operation that declares error responses; one that declares none gets no alias and its
 * `errorOf` entry is `Record<never, never>` (a plain `HttpStatusError`).
 */
export function errorTypes(
  op: HttpOperation,
  names: NameTable,
  base: string,
  ctx: TypeWriterContext,
): { name: string; statement?: (w: CodeWriter) => void } {
  const seen = new Set<string>();
  const members: TypeMember[] = [];
  for (const r of errorResponses(op.responses)) {
    const key = statusKey(r.status);
    if (seen.has(key)) continue; // `404` and `"404"` from a sloppy spec are one status
    seen.add(key);
    members.push({ key, type: bodyType(r, ctx) });
  }
  if (members.length === 0) return { name: 'Record<never, never>' };
  const name = names.claim(`${base}Errors`);
  const doc = [`Error bodies of \`${docInline(op.key)}\` by status (see \`errorOf\`).`];
  return { name, statement: typeAliasStatement(name, doc, (w) => writeObjectType(w, members)) };
}
