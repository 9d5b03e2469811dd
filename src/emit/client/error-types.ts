/**
 * The error responses a spec declares for one operation, status → body type (`404: NotFound`, `"4XX": …`,
 * `default: Error`), written as that operation's entry of the client's errors map (`PaymentsErrors["POST /charges"]`).
 * The runtime's `HttpErrorOf<…>` turns it into an `HttpStatusError` whose `status` narrows `body`; the
 * client's static `errorOf` hands it out.
 */
import { CodeWriter } from './code-writer.js';
import type { SharedTypes } from './shared-types.js';
import type { HttpOperation, ResponseSpec } from '../../ir/types.js';
import { tsNumber } from '../../escape/index.js';
import { errorResponses, pickResponseContent } from '../media.js';
import { propertyKey } from './names.js';
import { writeObjectType, type TypeMember } from './object-type.js';
import { writeSchemaType, type TypeWriterContext } from './schema-type.js';

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
 * The errors-map entry of an operation that declares error responses (one line when every body is a name);
 * an entry several operations share (Graph: `{ "4XX": ODataError; "5XX": ODataError }` on almost every
 * one) is written once as `ErrorBodies`, `ErrorBodies2`, …; one that declares none is `Record<never, never>`
 * (a plain `HttpStatusError`).
 */
export function errorTypes(
  op: HttpOperation,
  ctx: TypeWriterContext,
  shared: SharedTypes,
): string | ((w: CodeWriter) => void) {
  const seen = new Set<string>();
  const members: TypeMember[] = [];
  for (const r of errorResponses(op.responses)) {
    const key = statusKey(r.status);
    if (seen.has(key)) continue; // `404` and `"404"` from a sloppy spec are one status
    seen.add(key);
    members.push({ key, type: bodyType(r, ctx) });
  }
  if (members.length === 0) return 'Record<never, never>';
  const scratch = new CodeWriter();
  writeObjectType(scratch, members, { oneLine: true });
  return shared.use(scratch.toString(), 'ErrorBodies', SHARED_MIN_LENGTH);
}

/** `{ 404: NotFound }` stays inline; a shared alias pays off from about this length. */
const SHARED_MIN_LENGTH = 40;
