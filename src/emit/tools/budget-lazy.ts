/**
 * `fitBudget` without normalizing what it would throw away. A Graph tool over the budget reaches ~450 KB
 * of definitions and keeps ~32 KB: normalizing all of them first was most of the tools' and handlers'
 * time. Definitions are normalized in the same first-in-first-out order as `finishDefs` (so every name is
 * the one the full run gives it), only until the size check is decided and the levels the budget looks
 * at (kept ones, plus the first trimmed level for its placeholders) are known. The result is the one
 * `fitBudget` gives on the fully normalized schema; where that cannot be shown cheaply (a literal `$ref`
 * the level walk does not see, or a ref `liftRef` rejects that the loader did not report) it finishes
 * every definition and calls `fitBudget` itself.
 */
import type { JsonSchema } from '../../ir/types.js';
import { followRef, isObject } from '../../json-pointer/refs.js';
import {
  SCHEMA_BUDGET_CHARS,
  compactLength,
  defName,
  fitBudget,
  loosenUnions,
  placeholderStub,
  refsOf,
  defRefsOf,
} from './budget.js';
import { finishDefs, finishNext, liftsRef, sortedDefs, type DefsBuilder } from './defs.js';
import { normalizeSchema } from './normalize.js';
import { pruneDefs } from '@idemgen/runtime/internal/tools/strict/strict-limits.js';

type Obj = Record<string, unknown>;

class PendingDefs {
  private readonly sizes = new Map<string, number>();

  constructor(readonly builder: DefsBuilder) {}

  /** Normalizes the next queued definition; its name, or undefined when every one is done. */
  step(): string | undefined {
    return finishNext(this.builder, normalizeSchema);
  }

  /** A definition by name, normalizing queued ones (in order) until it is done. */
  get(name: string): JsonSchema | undefined {
    while (!this.builder.defs.has(name) && this.step() !== undefined);
    return this.builder.defs.get(name);
  }

  /** Its share of the compact JSON text (`"name":…,`), as budget.ts counts it. */
  size(name: string): number {
    let n = this.sizes.get(name);
    if (n === undefined) {
      n = name.length + 4 + compactLength(this.get(name));
      this.sizes.set(name, n);
    }
    return n;
  }
}

/** Every definition normalized and attached, then the eager `fitBudget`. */
function finishEagerly(schema: Obj, builder: DefsBuilder, budget: number): number {
  const defs = finishDefs(builder, normalizeSchema);
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return fitBudget(schema, budget);
}

/** Per document: whether every `$ref` in it that `liftRef` rejects is one the loader reported (tool-spec.ts skips those). */
const quietRefs = new WeakMap<object, boolean>();
function rejectsOnlyReported(root: unknown): boolean {
  if (!isObject(root)) return true;
  let known = quietRefs.get(root);
  if (known === undefined) {
    const refs = new Set<string>();
    // The whole document, once: keys by `for…in` (no array of values per node; a parsed document has no
    // inherited enumerable keys), and only objects descended into.
    const walk = (node: object): void => {
      if (Array.isArray(node)) {
        for (const item of node) if (typeof item === 'object' && item !== null) walk(item);
        return;
      }
      const obj = node as Obj;
      if (typeof obj.$ref === 'string') refs.add(obj.$ref);
      for (const key in obj) {
        const value = obj[key];
        if (typeof value === 'object' && value !== null) walk(value);
      }
    };
    walk(root);
    known = [...refs].every((ref) => liftsRef(root, ref) || followRef(root, { $ref: ref }, '').value === undefined);
    quietRefs.set(root, known);
  }
  return known;
}

/** A `$ref` reachable the way pruneDefs walks (literal values included) to a name with no normalized definition. */
function reachesPending(schema: Obj, defs: Obj, builder: DefsBuilder): boolean {
  const seen = new Set<string>();
  const visit = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(visit);
    if (!isObject(node)) return false;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/')) {
      const name = defName(node.$ref);
      // Not normalized (yet): it may be lifted later under that very name, so only the full run can tell.
      if (!builder.defs.has(name)) return true;
      if (!seen.has(name)) {
        seen.add(name);
        if (visit(defs[name])) return true;
      }
    }
    return Object.entries(node).some(
      ([key, value]) => key !== '$defs' && key !== 'enum' && key !== 'const' && visit(value),
    );
  };
  return visit(schema);
}

/**
 * `schema` is a tool input without `$defs`, `builder` holds its lifted (not yet normalized) definitions.
 * Attaches the definitions and trims like `fitBudget`; returns the number of placeholders.
 */
export function fitBudgetLazily(schema: Obj, builder: DefsBuilder, budget = SCHEMA_BUDGET_CHARS): number {
  const pending = new PendingDefs(builder);
  const restSize = JSON.stringify(schema).length;
  // `{…rest,"$defs":{…}}` is the rest's text plus 10 plus each definition's size: a running lower bound.
  let total = restSize + 10;
  for (;;) {
    if (total > budget && builder.defs.size > 0) break;
    const name = pending.step();
    if (name === undefined) return finishEagerly(schema, builder, budget);
    total += pending.size(name);
  }
  // Over the budget: the levels of budget.ts, each computed only when the loop below looks at it.
  const byLevel: string[][] = [];
  const seen = new Set<string>();
  let frontier = [...refsOf(schema, new Set())].filter((n) => builder.used.has(n)).sort();
  const ensure = (level: number): void => {
    while (byLevel.length <= level && frontier.length > 0) {
      for (const n of frontier) seen.add(n);
      byLevel.push(frontier);
      const next = new Set<string>();
      for (const name of frontier)
        for (const ref of defRefsOf(pending.get(name))) if (builder.used.has(ref) && !seen.has(ref)) next.add(ref);
      frontier = [...next].sort();
    }
  };
  const lookup = (name: string): unknown => (builder.used.has(name) ? pending.get(name) : undefined);
  const stubSize = (name: string): number => placeholderStub(name, pending.get(name), lookup).size;
  let used = restSize + 12;
  let keep = 0;
  for (;;) {
    ensure(keep + 1);
    if (keep >= byLevel.length) break;
    const full = byLevel[keep].reduce((n, name) => n + pending.size(name), 0);
    const after = keep + 1 < byLevel.length ? byLevel[keep + 1].reduce((n, name) => n + stubSize(name), 0) : 0;
    if (used + full + after > budget) break;
    used += full;
    keep += 1;
  }
  if (keep === byLevel.length) return finishEagerly(schema, builder, budget);
  const trimmed: Obj = sortedDefs(builder);
  for (const name of byLevel[keep]) trimmed[name] = placeholderStub(name, builder.defs.get(name), lookup).schema;
  const quiet =
    builder.unresolved.every((ref) => followRef(builder.root, { $ref: ref }, '').value === undefined) &&
    rejectsOnlyReported(builder.root);
  if (!quiet || reachesPending(schema, trimmed, builder)) return finishEagerly(schema, builder, budget);
  schema.$defs = trimmed;
  pruneDefs(schema);
  loosenUnions(schema, new Set(byLevel[keep]));
  return byLevel[keep].length;
}
