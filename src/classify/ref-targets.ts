/** Schema `$ref`s resolved for classification's body-key search (schema-fields.ts), once per document and ref. */
import { followRef, isObject, isRef } from '../json-pointer/refs.js';
import { type ClassifyMemo, memoSlot } from './memo.js';

export type Resolved = { value: Record<string, unknown>; pointer: string } | undefined;

/**
 * Per document: `$ref` → its resolved target. A ref's target and pointer depend only on the ref (the pointer
 * of the referring schema is not used once it resolves), and the IR's documents are not edited after they are
 * built, so each of the searches over ~11,000 Graph bodies follows a ref once instead of parsing it again.
 */
const REF_TARGETS = memoSlot('resolved $refs', () => new WeakMap<object, Map<string, Resolved>>());

export function resolve(memo: ClassifyMemo, root: unknown, schema: unknown, pointer: string): Resolved {
  // Not a ref: the schema itself, where it is (what followRef would answer).
  if (!isRef(schema)) return isObject(schema) ? { value: schema, pointer } : undefined;
  if (!isObject(root)) {
    const r = followRef(root, schema, pointer);
    return isObject(r.value) ? { value: r.value, pointer: r.pointer } : undefined;
  }
  const refTargets = memo.get(REF_TARGETS);
  let targets = refTargets.get(root);
  if (targets === undefined) {
    targets = new Map();
    refTargets.set(root, targets);
  }
  if (targets.has(schema.$ref)) return targets.get(schema.$ref);
  const r = followRef(root, schema, pointer);
  const resolved = isObject(r.value) ? { value: r.value, pointer: r.pointer } : undefined;
  targets.set(schema.$ref, resolved);
  return resolved;
}
