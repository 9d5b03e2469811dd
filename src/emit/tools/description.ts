/**
 * The text a model reads about a tool. OpenAPI operations: the `summary` (one line written as a name
 * for the call) beats a long `description`, HTML (Stripe's `<p>`) is stripped and whitespace collapsed.
 * Every description is capped: OpenAI rejects a `function.description` over 1,024 characters
 * (`string_above_max_length`, "Expected a string with maximum length 1024"; seen with MCP servers in
 * getsentry/sentry-mcp#106), so one cap keeps the three targets identical.
 */
import type { PlanEntry } from '../../classify/types.js';
import type { Operation } from '../../ir/types.js';

export const MAX_DESCRIPTION = 1024;

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/** Tags out (`<p>`, `</a>`, `<br/>`), the common entities decoded, whitespace runs made one space. */
export function plainText(html: string): string {
  return html
    .replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_m, e: string) => ENTITIES[e])
    .replace(/\s+/g, ' ')
    .trim();
}

/** At most `max` characters (code points), ending with an ellipsis when cut. */
export function capText(text: string, max = MAX_DESCRIPTION): string {
  // No more code points than UTF-16 units: a short text needs no array of its characters (most of them).
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

export function describeOperation(op: Operation): string {
  if (op.kind === 'tool') {
    // A tool's own description was written for a model: kept as written, only capped.
    const own = [op.description, op.summary].find((t) => t !== undefined && t.trim() !== '');
    return capText(own ?? op.toolName);
  }
  for (const text of [op.summary, op.description]) {
    const plain = text === undefined ? '' : plainText(text);
    if (plain !== '') return capText(plain);
  }
  return `${op.method.toUpperCase()} ${op.path}`;
}

/**
 * The operation's text, then for a `method-idempotent` write what makes a retry safe (it is still a write:
 * the annotations never call it read-only). The note is kept whole; the spec's text is cut to make room.
 */
export function describeEntry(entry: PlanEntry): string {
  const op = entry.operation;
  if (entry.mechanism !== 'method-idempotent' || op.kind !== 'http') return describeOperation(op);
  const M = op.method.toUpperCase();
  const gone = op.method === 'delete' ? ' A retry that finds the resource already gone reports it as done.' : '';
  const note = ` Safe to retry: repeating this ${M} with the same arguments leaves the same state (HTTP method semantics); after a timeout or unknown outcome, call it again with the same arguments.${gone}`;
  const own = capText(describeOperation(op), MAX_DESCRIPTION - Array.from(note).length - 1);
  return `${own}${/[.!?…]$/.test(own) ? '' : '.'}${note}`;
}
