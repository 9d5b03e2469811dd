/**
 * Strict forms of `$defs` entries, computed once per run. Normalized definitions are shared by every tool
 * that reaches them (defs.ts), and a definition's strict form depends only on the definition, its name
 * (the pointers it reports) and the other definitions `allOf` merging reads — so a later tool with the
 * same definition under the same name, reading the same entries, gets the same form, and the same
 * pointers and removed keywords are recorded for it. Strict forms are never edited afterwards
 * (strict-limits.ts replaces root properties and `$defs` maps, not their contents).
 */
import { ownValue } from './own.js';
import { strictNode, type StrictContext } from './strict.js';

type Obj = Record<string, unknown>;

interface StrictDef {
  name: string;
  reads: [string, unknown][];
  encoded: string[];
  removed: string[];
  strict: Obj;
}

const strictDefs = new WeakMap<object, StrictDef>();

/** `strictNode(def, '/$defs/<name>', ctx)`, remembered per normalized definition object. */
export function strictDef(def: unknown, name: string, ctx: StrictContext): Obj {
  if (typeof def !== 'object' || def === null) return strictNode(def, `/$defs/${name}`, ctx);
  const known = strictDefs.get(def);
  if (known !== undefined && known.name === name && known.reads.every(([n, v]) => ownValue(ctx.defs, n) === v)) {
    ctx.encoded.push(...known.encoded);
    for (const keyword of known.removed) ctx.removed.add(keyword);
    return known.strict;
  }
  // Computed against an empty record of its own, then added to the tool's.
  const own: StrictContext = { defs: ctx.defs, encoded: [], removed: new Set(), reads: [] };
  const strict = strictNode(def, `/$defs/${name}`, own);
  ctx.encoded.push(...own.encoded);
  for (const keyword of own.removed) ctx.removed.add(keyword);
  strictDefs.set(def, { name, reads: own.reads ?? [], encoded: own.encoded, removed: [...own.removed], strict });
  return strict;
}
