/**
 * Whether a caller must pass the request body. The spec's `requestBody.required`, and one more case: a
 * native key carried in the body (Twilio's `IdempotencyKey` form field) makes the runtime send a body
 * even when the caller passes none, and that body must then satisfy the schema. When the schema requires
 * a top-level field other than the key itself (`Callback`), a body with the key alone would be refused, so
 * the body is required (in the client's type and the tool's input schema alike).
 */
import { derefSchema, isObject } from '../json-pointer/refs.js';
import type { Carrier } from '../config/vocabulary.js';

export function bodyRequired(
  declared: boolean,
  schema: unknown,
  carrier: Carrier | null | undefined,
  root: unknown,
): boolean {
  if (declared) return true;
  if (carrier === null || carrier === undefined || (carrier.in !== 'body' && carrier.in !== 'form')) return false;
  const s = derefSchema(root, schema);
  if (!isObject(s) || !Array.isArray(s.required)) return false;
  const keyField = carrier.path.length === 1 ? carrier.path[0] : undefined;
  return s.required.some((r) => typeof r === 'string' && r !== keyField);
}
