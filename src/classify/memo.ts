/**
 * Classification's memos for one run. `classify` makes one `ClassifyMemo` and hands it down on the
 * context (context.ts); every lookup a step remembers (resolved `$ref`s, schema shapes, body searches,
 * description readings, path indexes, compiled globs) lives in one of its slots and goes away with the run.
 * No module keeps state between runs, so two runs in one process answer as two processes would.
 */

/** One kind of remembered value: declared once by the module that owns it, created on first use per run. */
export interface MemoSlot<T> {
  readonly name: string;
  readonly create: () => T;
}

export function memoSlot<T>(name: string, create: () => T): MemoSlot<T> {
  return { name, create };
}

export class ClassifyMemo {
  readonly #values = new Map<MemoSlot<unknown>, unknown>();

  /** The slot's value for this run (made by `slot.create` the first time it is asked for). */
  get<T>(slot: MemoSlot<T>): T {
    if (this.#values.has(slot)) return this.#values.get(slot) as T;
    const value = slot.create();
    this.#values.set(slot, value);
    return value;
  }
}
