/**
 * Generate-time check of OP-5 sagas: the generated client records the `id` of the create response as the
 * external id that a duplicate returns and reconcile compensates (saga, docs/concepts.md#mechanisms). A success response without
 * a top-level `id` means every call ends "outcome unknown" at run time, so the spec is flagged here first.
 */
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { followRef, isObject } from '../../json-pointer/refs.js';
import type { HttpOperation } from '../../ir/types.js';
import type { ApiPlan } from '../../classify/types.js';
import { isWrapped } from './client-class.js';
import { successResponses } from './media.js';

/**
 * Does `schema` promise a top-level `id`? Through refs; `allOf` needs one member with it, `oneOf`/`anyOf`
 * need it in every branch. An untyped or missing schema promises nothing.
 */
function schemaHasId(root: unknown, schema: unknown, seen: Set<unknown> = new Set()): boolean {
  const value = followRef(root, schema, '').value;
  if (!isObject(value) || seen.has(value)) return false;
  seen.add(value);
  if (isObject(value.properties) && Object.hasOwn(value.properties, 'id')) return true;
  if (Array.isArray(value.allOf) && value.allOf.some((s) => schemaHasId(root, s, seen))) return true;
  for (const k of ['oneOf', 'anyOf']) {
    const subs = value[k];
    if (Array.isArray(subs) && subs.length > 0 && subs.every((s) => schemaHasId(root, s, new Set(seen)))) return true;
  }
  return false;
}

function missingIdPointer(root: unknown, op: HttpOperation): string | undefined {
  const ok = successResponses(op.responses);
  if (ok.length === 0) return `${op.source.pointer}/responses`;
  for (const r of ok) {
    const json = r.content.filter((m) => m.mediaType.toLowerCase().includes('json'));
    if (json.length > 0 && json.every((m) => schemaHasId(root, m.schema))) continue;
    return r.pointer;
  }
  return undefined;
}

export function sagaDiagnostics(apiPlan: ApiPlan): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const entry of apiPlan.entries) {
    if (entry.operation.kind !== 'http' || !isWrapped(entry) || entry.mechanism !== 'saga') continue;
    const op = entry.operation;
    const pointer = missingIdPointer(apiPlan.api.root, op);
    if (pointer === undefined) continue;
    out.push(
      diagnostic(
        'saga_external_id_missing',
        'warning',
        `${op.key}: the success response declares no top-level \`id\`, so the saga cannot record the external id it would compensate; ` +
          'the generated client refuses such a response at run time (outcome unknown: reconcile it, do not retry)',
        {
          file: op.source.file,
          pointer,
          hint: 'declare `id` in the create response schema, or override the operation to a mechanism that needs no external id',
        },
      ),
    );
  }
  return out;
}
