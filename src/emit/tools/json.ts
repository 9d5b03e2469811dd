import { escapeStringifiedJson, jsonText } from '../../escape/index.js';
import type { FileWriter } from '../types.js';
import { boundedMemo } from '../../objects.js';

/** Deterministic JSON for emitted files: 2-space indent, LF, trailing newline (STYLE habit 7). */
export function renderJson(value: unknown): string {
  return `${jsonText(value, 2)}\n`;
}

/** Characters `JSON.stringify(…, null, 2)` puts before and after a value nested `level` arrays deep. */
const wrapLength = (level: number): number => level * (level + 1);

/**
 * `JSON.stringify(value, null, 2)` as it reads at nesting `level` (2 spaces each) of a larger document: the
 * first line unpadded, every later line shifted by the level's indent. Not escaped (escapeStringifiedJson). The value
 * is stringified inside `level` one-item arrays and the wrapping cut off, so the engine indents it (re-indenting
 * the text with a regex cost as much as the stringify).
 */
export function jsonAt(value: unknown, level: number): string {
  let wrapped: unknown = value;
  for (let i = 0; i < level; i += 1) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  if (text === undefined) throw new TypeError('jsonAt: value has no JSON form');
  return text.slice(wrapLength(level) + 2 * level, text.length - wrapLength(level));
}

/**
 * A non-empty object's `jsonAt` text with some member values given as text already (`jsonAt(value, level + 1)`),
 * so a large value shared by several files is stringified once. Members whose value is undefined are left out,
 * as `JSON.stringify` leaves them out.
 */
export function objectAt(obj: Record<string, unknown>, level: number, texts: Record<string, string>): string {
  const inner = '  '.repeat(level + 1);
  const members: string[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (value === undefined) continue;
    const text = Object.hasOwn(texts, key) ? texts[key] : jsonAt(value, level + 1);
    members.push(`${inner}${JSON.stringify(key)}: ${text}`);
  }
  return `{\n${members.join(',\n')}\n${'  '.repeat(level)}}`;
}

/**
 * Member names as JSON text, each made once: the same few thousand names (`type`, `description`, a schema's
 * property names) are written hundreds of thousands of times on Graph. Bounded, so a long-lived process that
 * reads many specs does not keep every name it ever met.
 */
const keyText = boundedMemo(50_000, (key) => JSON.stringify(key));

/**
 * `objectAt`'s compact form: `JSON.stringify(obj)` with some member values given as compact text already.
 * `encode` maps each key's and each other value's JSON text (the given texts are encoded already); it must work
 * character by character, so the pieces encoded apart join to the whole text encoded (schema-text.ts `IN_STRING`).
 */
export function compactObjectText(
  obj: Record<string, unknown>,
  texts: Record<string, string>,
  encode?: (json: string) => string,
): string {
  // Appended piece by piece (no member array, no entry pairs): a tool's `$defs` has hundreds of members.
  let out = '{';
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (value === undefined) continue;
    const json = Object.hasOwn(texts, key) ? texts[key] : (JSON.stringify(value) as string);
    const text = encode === undefined || Object.hasOwn(texts, key) ? json : encode(json);
    const name = keyText(key);
    out += `${out.length === 1 ? '' : ','}${encode === undefined ? name : encode(name)}:${text}`;
  }
  return `${out}}`;
}

/**
 * A JSON array written item by item into `out`, byte-identical to `before + renderJson(array) + after`
 * with the array placed at nesting `level` (2 spaces each): each item is serialized and handed over at
 * once, so only one item's text is alive at a time.
 */
export class JsonArrayWriter {
  private readonly pad: string;
  private count = 0;

  constructor(
    private readonly out: FileWriter,
    level: number,
    private readonly before: string,
    private readonly after: string,
  ) {
    this.pad = '  '.repeat(level);
  }

  /** An item given as its unescaped JSON text (compact, or `jsonAt(item, level)`). */
  pushText(text: string): void {
    const escaped = escapeStringifiedJson(text);
    this.out.write(this.count === 0 ? `${this.before}[\n${this.pad}${escaped}` : `,\n${this.pad}${escaped}`);
    this.count += 1;
  }

  /** Closes the array and the file. */
  finish(): void {
    this.out.write(this.count === 0 ? `${this.before}[]${this.after}` : `\n${this.pad.slice(2)}]${this.after}`);
    this.out.end();
  }
}
