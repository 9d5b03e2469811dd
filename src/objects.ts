/**
 * Small helpers for plain data that several stages share: a memo lookup, a bounded per-process memo, and a
 * member write that keeps a spec's `__proto__` member as data.
 */
import { setOwn } from '@idemgen/runtime/internal/tools/strict/own.js';

/** `map.get(key)`, adding `make()` first when it is missing (a Map or a WeakMap; `undefined` counts as missing). */
export function getOrAdd<K, V>(map: { get(k: K): V | undefined; set(k: K, v: V): unknown }, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/**
 * `make(key)` remembered per string key, at most `max` of them: the map is emptied when it is full, so a
 * long-lived process (`serve`, a program using the library) does not keep every key it ever met. Callers only
 * read what they are given.
 */
export function boundedMemo<V>(max: number, make: (key: string) => V): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = make(key);
      if (known.size >= max) known.clear();
      known.set(key, value);
    }
    return value;
  };
}

/**
 * `o[k] = v` as an own data member, `__proto__` included (an assignment would set the prototype instead).
 * Only that name goes through `Object.defineProperty`: defining every member that way leaves V8 a slow
 * dictionary-mode object.
 */
export function setMember(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') setOwn(o, k, v);
  else o[k] = v;
}
