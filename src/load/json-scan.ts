/**
 * A small JSON scanner over the raw text: finds where an RFC 6901 pointer lives (for diagnostics)
 * and where a syntax error is (V8's JSON.parse messages do not always carry a position).
 * Works on 20+ MB texts: one forward pass, values that are not on the path are skipped unparsed.
 */

const WS = new Set([' ', '\t', '\n', '\r']);

function skipWs(text: string, i: number): number {
  while (i < text.length && WS.has(text[i])) i++;
  return i;
}

/** Index just after the closing quote of the string starting at `i`, or -1. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '"') return j + 1;
  }
  return -1;
}

function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c !== '{' && c !== '[') {
    let j = i;
    while (j < text.length && !WS.has(text[j]) && text[j] !== ',' && text[j] !== '}' && text[j] !== ']') j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text[j];
    if (d === '"') {
      j = skipString(text, j) - 1;
      if (j < 0) return -1;
    } else if (d === '{' || d === '[') depth++;
    else if (d === '}' || d === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

function readKey(text: string, i: number): { key: string; end: number } | undefined {
  const end = skipString(text, i);
  if (end < 0) return undefined;
  const raw = text.slice(i + 1, end - 1);
  if (!raw.includes('\\')) return { key: raw, end };
  try {
    return { key: JSON.parse(text.slice(i, end)) as string, end };
  } catch {
    return undefined;
  }
}

/** Where a member key (objects) or an item (arrays) starts, and where its value starts. */
interface Slot {
  at: number;
  value: number;
}

/**
 * One object or array of the text, scanned lazily and only as far as a lookup needed: the members seen
 * so far are remembered, so later lookups in the same container resume instead of rescanning.
 */
interface Container {
  members: Map<string, Slot> | undefined;
  items: number[] | undefined;
  /** Next unscanned position, or -1 once the container is exhausted (or malformed). */
  next: number;
  /** Start of the last scanned value, not yet skipped (skipped only when a lookup goes further). */
  pending: number;
}

/**
 * Pointer → offset lookups over one text. A lookup costs the part of each container on its path that no
 * earlier lookup scanned, plus O(depth): thousands of diagnostics on a 20 MB spec scan it about once.
 * Only containers on a looked-up path are indexed, so memory follows the pointers asked for.
 */
export class JsonLocator {
  private readonly containers = new Map<number, Container>();

  constructor(private readonly text: string) {}

  /** Offset of the member key (objects) or value (arrays) for the deepest matching prefix of `segments`. */
  locate(segments: readonly string[]): number | undefined {
    const text = this.text;
    let i = skipWs(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
    let found: number | undefined = i < text.length ? i : undefined;
    for (const seg of segments) {
      const c = text[i];
      const next = c === '{' ? this.member(i, seg) : c === '[' ? this.item(i, seg) : undefined;
      if (!next) return found;
      found = next.at;
      i = next.value;
    }
    return found;
  }

  private container(i: number): Container {
    let c = this.containers.get(i);
    if (!c) {
      c = { members: undefined, items: undefined, next: skipWs(this.text, i + 1), pending: -1 };
      this.containers.set(i, c);
    }
    return c;
  }

  /** Moves past the value scanned last; false once the container has nothing more. */
  private advance(c: Container): boolean {
    if (c.pending >= 0) {
      c.next = afterValue(this.text, skipValue(this.text, c.pending));
      c.pending = -1;
    }
    return c.next >= 0;
  }

  /** The first member named `seg` (the one a forward scan meets first). */
  private member(i: number, seg: string): Slot | undefined {
    const c = this.container(i);
    c.members ??= new Map();
    const members = c.members;
    const known = members.get(seg);
    if (known) return known;
    while (this.advance(c)) {
      const slot = scanMember(this.text, c.next);
      if (!slot) {
        c.next = -1;
        return undefined;
      }
      if (!members.has(slot.key)) members.set(slot.key, { at: slot.at, value: slot.value });
      c.pending = slot.value;
      if (slot.key === seg) return slot;
    }
    return undefined;
  }

  private item(i: number, seg: string): Slot | undefined {
    if (!/^(0|[1-9]\d*)$/.test(seg)) return undefined;
    const target = Number(seg);
    const c = this.container(i);
    c.items ??= [];
    const items = c.items;
    while (items.length <= target && this.advance(c)) {
      const at = c.next;
      if (at >= this.text.length || this.text[at] === ']') {
        c.next = -1;
        break;
      }
      items.push(at);
      c.pending = at;
    }
    return target < items.length ? { at: items[target], value: items[target] } : undefined;
  }
}

/** Position of the next member/item after a value ending at `end` (past the comma), or -1. */
function afterValue(text: string, end: number): number {
  if (end < 0) return -1;
  const i = skipWs(text, end);
  return text[i] === ',' ? skipWs(text, i + 1) : -1;
}

/** The member whose key starts at `i`: its key and where its value starts. */
function scanMember(text: string, i: number): (Slot & { key: string }) | undefined {
  if (i >= text.length || text[i] !== '"') return undefined;
  const k = readKey(text, i);
  if (!k) return undefined;
  let j = skipWs(text, k.end);
  if (text[j] !== ':') return undefined;
  j = skipWs(text, j + 1);
  return { key: k.key, at: i, value: j };
}
