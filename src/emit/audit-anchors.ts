/**
 * The HTML anchor of each operation's row in `report/audit.md`, so a generated client can link a method
 * to the row that says why it is wrapped the way it is. Both the report and the client compute the
 * anchors from the whole plan with this one function: `post-payouts`, made unique across the report by a
 * `-2`, `-3` suffix in (file, key) order. Anchors are `[a-z0-9-]` only, safe in HTML, Markdown and comments.
 */
import type { Plan } from '../classify/types.js';

/** Map key of one operation: its file and its key (keys are unique within a file). */
export const anchorKey = (file: string, key: string): string => `${file}\u0000${key}`;

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'operation'
  );
}

export function operationAnchors(operations: readonly { file: string; key: string }[]): Map<string, string> {
  const sorted = [...operations].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  );
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const o of sorted) {
    const k = anchorKey(o.file, o.key);
    if (out.has(k)) continue;
    const wanted = slug(o.key);
    let anchor = wanted;
    for (let i = 2; taken.has(anchor); i++) anchor = `${wanted}-${i}`;
    taken.add(anchor);
    out.set(k, anchor);
  }
  return out;
}

/** A plan's anchors, once per plan: the client and the report of one run read the same map. */
const BY_PLAN = new WeakMap<Plan, ReadonlyMap<string, string>>();

export function planAnchors(plan: Plan): ReadonlyMap<string, string> {
  let anchors = BY_PLAN.get(plan);
  if (anchors === undefined) {
    anchors = operationAnchors(
      plan.apis.flatMap((a) => a.entries.map((e) => ({ file: e.operation.source.file, key: e.operation.key }))),
    );
    BY_PLAN.set(plan, anchors);
  }
  return anchors;
}
