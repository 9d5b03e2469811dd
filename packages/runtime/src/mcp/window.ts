/**
 * The in-process dedup window in front of the persistent store (docs/concepts.md#tool-dedup: "5-minute in-memory LRU +
 * persistent backing for cross-restart safety"). It only ever holds *completed* outcomes, so a hit can
 * be answered without a store round trip; anything else goes to the store, which stays the authority.
 */
export interface WindowEntry<R> {
  argsHash: string;
  result: R;
  calledAt: number;
  storedAt: number;
}

export interface DedupWindow<R> {
  get(id: string, now: number): WindowEntry<R> | undefined;
  set(id: string, entry: WindowEntry<R>): void;
  readonly size: number;
}

/** A Map keeps insertion order: re-inserting on a hit makes the first entry the least recently used. */
export function createDedupWindow<R>(windowMs: number, windowSize: number): DedupWindow<R> {
  const entries = new Map<string, WindowEntry<R>>();
  return {
    get(id, now) {
      const entry = entries.get(id);
      if (entry === undefined) return undefined;
      entries.delete(id);
      if (now - entry.storedAt > windowMs) return undefined;
      entries.set(id, entry);
      return entry;
    },
    set(id, entry) {
      if (windowSize <= 0 || windowMs <= 0) return;
      entries.delete(id);
      entries.set(id, entry);
      while (entries.size > windowSize) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
}
