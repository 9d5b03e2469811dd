/**
 * Generate-time check of OP-5 sagas: the generated client records what addresses the inverse (request values,
 * response fields; classify/compensation.ts) as the external id a duplicate returns and reconcile compensates
 * (saga, docs/concepts.md#mechanisms). When nothing does, a 2xx is reported done but cannot be undone: flagged here.
 */
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { followRef, isObject } from '../../json-pointer/refs.js';
import type { HttpOperation } from '../../ir/types.js';
import type { ApiPlan } from '../../classify/types.js';
import { isWrapped } from './client-class.js';
import { successResponses } from '../media.js';

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
    // The inverse is addressed by request values or response fields classify found: nothing to warn about.
    if (entry.compensationAddress !== undefined) continue;
    const op = entry.operation;
    const pointer = missingIdPointer(apiPlan.api.root, op);
    if (pointer === undefined) continue;
    out.push(
      diagnostic(
        'saga_external_id_missing',
        'warning',
        `${op.key}: neither the request nor the success response (no top-level \`id\`) addresses the inverse, so the saga cannot record what it would compensate; ` +
          'a 2xx is reported done with `cannotUndo`: the write cannot be undone automatically',
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
