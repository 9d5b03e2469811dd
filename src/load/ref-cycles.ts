/**
 * Ref-only cycles (`A: {$ref: B}`, `B: {$ref: A}`): every ref in the chain resolves, yet no schema is ever
 * reached, so nothing can be generated from it. Found per distinct ref target, so a Graph-sized spec pays
 * one lookup per ref string, and only refs whose target is itself a ref are followed any further.
 */
import { isRef, resolveRefTarget } from '../json-pointer/refs.js';

/**
 * The cycles reachable from `refs`, each as the sorted pointers of its member nodes (each member is an
 * object whose `$ref` points at the next one). Every cycle is listed once, cycles sorted by first member.
 */
export function findRefCycles(root: unknown, refs: Iterable<string>): string[][] {
  const cycles = new Map<string, string[]>();
  const settled = new Set<string>();
  for (const ref of refs) {
    const first = resolveRefTarget(root, ref);
    if (!first || !isRef(first.value)) continue;
    const chain: string[] = [];
    let at: { value: unknown; pointer: string } | undefined = first;
    while (at && isRef(at.value) && !settled.has(at.pointer)) {
      const loopStart = chain.indexOf(at.pointer);
      if (loopStart !== -1) {
        const members = chain.slice(loopStart).sort();
        cycles.set(members.join('\0'), members);
        break;
      }
      chain.push(at.pointer);
      at = resolveRefTarget(root, at.value.$ref);
    }
    for (const pointer of chain) settled.add(pointer);
  }
  return [...cycles.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
