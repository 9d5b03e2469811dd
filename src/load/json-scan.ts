/**
 * A small JSON scanner over the raw text: finds where an RFC 6901 pointer lives (for diagnostics)
 * and where a syntax error is (V8's JSON.parse messages do not always carry a position).
 * Works on 20+ MB texts: one forward pass, values that are not on the path are skipped unparsed.
 */

// Char codes: the scanner compares numbers, never one-character strings (a 20 MB text is skipped mostly
// value by value, so this loop is the whole cost of locating Graph's thousands of diagnostics).
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isWs = (c: number): boolean => c === SPACE || c === LF || c === CR || c === TAB;

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Index just after the closing quote of the string starting at `i`, or -1. */
function skipString(text: string, i: number): number {
  // Jump from quote to quote; a quote preceded by an odd run of backslashes is escaped.
  let q = text.indexOf('"', i + 1);
  while (q !== -1) {
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}

function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  const n = text.length;
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    let j = i;
    for (; j < n; j++) {
      const d = text.charCodeAt(j);
      if (isWs(d) || d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET) break;
    }
    return j;
  }
  let depth = 0;
  for (let j = i; j < n; j++) {
    const d = text.charCodeAt(j);
    if (d === QUOTE) {
      j = skipString(text, j) - 1;
      if (j < 0) return -1;
    } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
    else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
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
      const c = text.charCodeAt(i);
      const next = c === OPEN_BRACE ? this.member(i, seg) : c === OPEN_BRACKET ? this.item(i, seg) : undefined;
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
      if (at >= this.text.length || this.text.charCodeAt(at) === CLOSE_BRACKET) {
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
  return text.charCodeAt(i) === COMMA ? skipWs(text, i + 1) : -1;
}

/** The member whose key starts at `i`: its key and where its value starts. */
function scanMember(text: string, i: number): (Slot & { key: string }) | undefined {
  if (i >= text.length || text.charCodeAt(i) !== QUOTE) return undefined;
  const k = readKey(text, i);
  if (!k) return undefined;
  let j = skipWs(text, k.end);
  if (text.charCodeAt(j) !== COLON) return undefined;
  j = skipWs(text, j + 1);
  return { key: k.key, at: i, value: j };
}
