/**
 * Own properties only: a spec may name a property or a definition `__proto__` or `constructor`. Creating one
 * by assignment would set the object's prototype (and lose the name); reading one would find Object's.
 */

type Obj = Record<string, unknown>;

/** `o[k] = v` as an own data property even when `k` is `__proto__` (the way `JSON.parse` makes them). */
export function setOwn(o: Obj, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** `o[k]` when it is `o`'s own, else undefined. */
export const ownValue = (o: Obj, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
