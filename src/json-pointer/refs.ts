/**
 * `$ref` resolution against a bundled document. Specs are circular (Stripe), so nothing here
 * dereferences a whole tree; every helper that follows refs keeps a `seen` set.
 */
import { formatPointer, parsePointer } from './pointer.js';

export interface ResolvedRef {
  value: unknown;
  /** RFC 6901 pointer of the target inside the root. */
  pointer: string;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isRef(v: unknown): v is { $ref: string } {
  return isObject(v) && typeof v.$ref === 'string';
}

/** Value at an RFC 6901 pointer, or undefined. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  const segments = parsePointer(pointer);
  return segments ? resolveSegments(root, segments) : undefined;
}

export function resolveSegments(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const seg of segments) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(seg)) return undefined;
      node = node[Number(seg)];
    } else if (isObject(node) && Object.hasOwn(node, seg)) {
      node = node[seg];
    } else return undefined;
  }
  return node;
}

/** Percent-decoding of a URI fragment (RFC 6901 §6); the raw text when it is not valid escaping (`#/a%zz`). */
export function decodeFragment(fragment: string): string {
  // Without a `%` there is nothing to decode (and nothing malformed): the text is returned as is.
  if (!fragment.includes('%')) return fragment;
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** Segments of a local ref (`#/a/b~1c`, percent-decoded first); `undefined` when it is not `#` + a pointer. */
export function localRefSegments(ref: string): string[] | undefined {
  return ref.startsWith('#') ? parsePointer(decodeFragment(ref.slice(1))) : undefined;
}

/**
 * Target of an in-document `$ref`: `#/a/b~1c` (RFC 6901 + percent-decoding), `#anchor`
 * (`$anchor`), or an OpenAPI 3.1 schema `$id` such as `/components/schemas/petdetails#frag`.
 */
export function resolveRefTarget(root: unknown, ref: string): ResolvedRef | undefined {
  const hash = ref.indexOf('#');
  const base = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? '' : ref.slice(hash + 1);
  let basePointer = '';
  if (base !== '') {
    const byId = idIndex(root).ids.get(base);
    if (byId === undefined) return undefined;
    basePointer = byId;
  }
  const baseValue = resolvePointer(root, basePointer);
  if (fragment === '') return baseValue === undefined ? undefined : { value: baseValue, pointer: basePointer };
  if (!fragment.startsWith('/')) {
    const pointer = idIndex(root).anchors.get(`${basePointer}#${fragment}`);
    return pointer === undefined ? undefined : { value: resolvePointer(root, pointer), pointer };
  }
  for (const candidate of [decodeFragment(fragment), fragment]) {
    const pointer = basePointer + candidate;
    const value = resolvePointer(root, pointer);
    if (value !== undefined) return { value, pointer };
  }
  return undefined;
}

/** The value a `$ref` points to, or undefined when it does not resolve. */
export function resolveRef(root: unknown, ref: string): unknown {
  return resolveRefTarget(root, ref)?.value;
}

/**
 * Follow a chain of `$ref`s (a ref to a ref …) to a non-ref value. Cycle-safe: a chain that
 * comes back to itself, or does not resolve, ends with `value: undefined`.
 */
export function followRef(
  root: unknown,
  value: unknown,
  pointer: string,
  /** How one ref is resolved: `resolveRefTarget` in `root` unless the caller remembers targets. */
  targetOf: (ref: string) => ResolvedRef | undefined = (ref) => resolveRefTarget(root, ref),
): { value: unknown; pointer: string; ref?: string } {
  if (!isRef(value)) return { value, pointer, ref: undefined };
  const firstRef = value.$ref;
  // Made on the second hop: most refs lead straight to a non-ref value.
  let seen: Set<string> | undefined;
  let current: unknown = value;
  let at = pointer;
  let hops = 0;
  while (isRef(current)) {
    const ref = current.$ref;
    if (hops++ > 0) {
      seen ??= new Set([firstRef]);
      if (seen.has(ref)) return { value: undefined, pointer: at, ref: firstRef };
      seen.add(ref);
    }
    const target = targetOf(ref);
    if (!target) return { value: undefined, pointer: at, ref: firstRef };
    current = target.value;
    at = target.pointer;
  }
  return { value: current, pointer: at, ref: firstRef };
}

/**
 * One level of schema dereference: a `$ref` schema becomes its target (siblings of `$ref`, allowed
 * in OpenAPI 3.1, are kept and win). Nested refs inside the result stay as they are.
 */
export function derefSchema(root: unknown, schema: unknown): unknown {
  if (!isRef(schema)) return schema;
  const target = followRef(root, schema, '').value;
  if (target === undefined) return schema;
  const { $ref: _ref, ...siblings } = schema;
  if (!isObject(target) || Object.keys(siblings).length === 0) return target;
  return { ...target, ...siblings };
}

/**
 * Visit every object reachable from `start`, following `$ref`s, each resolved object once
 * (so cycles terminate). `visit` returning false stops the descent below that object.
 */
export function visitReachable(root: unknown, start: unknown, visit: (node: Record<string, unknown>) => unknown): void {
  const seen = new Set<unknown>();
  const stack: unknown[] = [start];
  while (stack.length > 0) {
    let node = stack.pop();
    if (isRef(node)) node = followRef(root, node, '').value;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    if (visit(node as Record<string, unknown>) === false) continue;
    for (const child of Object.values(node).reverse()) stack.push(child);
  }
}

interface IdIndex {
  /** `$id` → pointer. */
  ids: Map<string, string>;
  /** `<pointer of enclosing $id resource>#<$anchor>` → pointer. */
  anchors: Map<string, string>;
}

const ID_INDEX = new WeakMap<object, IdIndex>();

/** `$id` / `$anchor` index of a document (OpenAPI 3.1 schemas), built once per root. */
export function idIndex(root: unknown): IdIndex {
  const key = typeof root === 'object' && root !== null ? root : undefined;
  const cached = key && ID_INDEX.get(key);
  if (cached) return cached;
  const index: IdIndex = { ids: new Map(), anchors: new Map() };
  const stack: { node: unknown; path: string[]; resource: string }[] = [{ node: root, path: [], resource: '' }];
  while (stack.length > 0) {
    const { node, path, resource } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    let res = resource;
    if (!Array.isArray(node)) {
      const obj = node as Record<string, unknown>;
      const pointer = formatPointer(path);
      if (typeof obj.$id === 'string' && !index.ids.has(obj.$id)) {
        index.ids.set(obj.$id, pointer);
        res = pointer;
      }
      if (typeof obj.$anchor === 'string') index.anchors.set(`${res}#${obj.$anchor}`, pointer);
    }
    for (const [k, v] of Object.entries(node))
      if (typeof v === 'object' && v !== null) stack.push({ node: v, path: [...path, k], resource: res });
  }
  if (key) ID_INDEX.set(key, index);
  return index;
}
