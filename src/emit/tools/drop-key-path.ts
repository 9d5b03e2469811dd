/**
 * A native key carried in the body is asked for once, as the top-level `idempotency_key`; the tool handler
 * writes it back at the carrier's `path` (plan: `entry.carrier.path`). The body's own key field is removed
 * from the tool schema at that path — through `$defs` refs (copied, never edited: other tools share them),
 * nested objects and every `allOf`/`anyOf`/`oneOf` variant — so the model is not asked for two keys.
 */
import { defsRefName } from '@idemgen/runtime/internal/tools/strict/pointer.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const defName = (ref: string): string => defsRefName(ref) ?? '';

/** `node` without the property at `path`; the same object when nothing was dropped. */
export function dropKeyPath(
  node: unknown,
  path: readonly string[],
  defs: Obj,
  open: ReadonlySet<string> = new Set(),
): unknown {
  if (!isObj(node) || path.length === 0) return node;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/')) {
    const name = defName(node.$ref);
    const target = defs[name];
    if (open.has(name) || !isObj(target)) return node;
    const copy = dropKeyPath(target, path, defs, new Set([...open, name]));
    if (copy === target) return node;
    const { $ref: _ref, ...siblings } = node;
    return { ...(copy as Obj), ...siblings };
  }
  let out: Obj = node;
  const [head, ...rest] = path;
  if (isObj(node.properties) && Object.hasOwn(node.properties, head)) {
    const props: Obj = { ...node.properties };
    if (rest.length === 0) {
      delete props[head];
      out = { ...out, properties: props };
      if (Array.isArray(node.required)) out.required = node.required.filter((r) => r !== head);
    } else {
      const child = dropKeyPath(props[head], rest, defs, open);
      if (child !== props[head]) out = { ...out, properties: { ...props, [head]: child } };
    }
  }
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    const subs = node[k];
    if (!Array.isArray(subs)) continue;
    const mapped = subs.map((s) => dropKeyPath(s, path, defs, open));
    if (mapped.some((m, i) => m !== subs[i])) out = { ...out, [k]: mapped };
  }
  return out;
}
