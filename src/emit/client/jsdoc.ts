/**
 * JSDoc of a client method: only what differs per method — what it does, its key, for a write the class
 * and mechanism that shaped the wrapper, and a link to its row in the audit report, which holds the
 * carrier, key strategy, TTL and the reasons. What every write shares (the key options, the result
 * envelope, typed errors) is said once, on the class (`classDoc`).
 */
import type { Carrier, PlanEntry } from '../../classify/types.js';
import { docInline, docLines } from './schema-type.js';

function carrierText(carrier: Carrier): string {
  const limit = carrier.maxLength !== undefined ? `, ≤ ${carrier.maxLength} chars` : '';
  return `key in ${carrier.in} \`${docInline(carrier.name)}\`${limit}`;
}

function ttlText(ttl: number): string {
  return ttl % 3600 === 0 ? `${ttl / 3600} h` : `${ttl} s`;
}

/** `summary`, else the first paragraph of `description` (the rest stays in the spec); escaped by `docLines`. */
function summaryLines(entry: PlanEntry): string[] {
  const op = entry.operation;
  const summary = op.summary?.trim();
  const text =
    summary !== undefined && summary !== ''
      ? summary
      : op.description
          ?.trim()
          .split(/\r?\n\s*\r?\n/)[0]
          ?.trim();
  return text !== undefined && text !== '' ? docLines(text) : [];
}

/**
 * `native-key (key in header `Idempotency-Key`, ≤ 255 chars)`, `compensatable, saga (undone by …), TTL 24 h`:
 * the class, then the mechanism when its name says more than the class does.
 */
function writeLine(entry: PlanEntry): string {
  // What method-idempotent means (no key, no store, a retried DELETE that finds the resource gone) is said once, on the class.
  if (entry.mechanism === 'method-idempotent') return 'method-idempotent.';
  const details: string[] = [];
  if (entry.carrier !== null) details.push(carrierText(entry.carrier));
  if (entry.compensation !== undefined) details.push(`undone by \`${docInline(entry.compensation)}\``);
  const mechanism = `${entry.mechanism}${entry.toolBoundary ? ` + ${entry.toolBoundary}` : ''}`;
  const ttl = entry.ttlSeconds !== undefined ? `, TTL ${ttlText(entry.ttlSeconds)}` : '';
  const head = mechanism === entry.class ? mechanism : `${entry.class}, ${mechanism}`;
  return `${head}${details.length > 0 ? ` (${details.join('; ')})` : ''}${ttl}.`;
}

/** `auditLink`: the method's row in the audit report (`../report/audit.md#post-payouts`), when one is written. */
export function methodDoc(entry: PlanEntry, auditLink: string | undefined): string {
  const op = entry.operation;
  const lines = summaryLines(entry);
  const key = `\`${docInline(op.key)}\``;
  if (entry.effect === 'write' && entry.mechanism !== 'none') lines.push(`${key}: ${writeLine(entry)}`);
  else if (entry.effect === 'write')
    lines.push(
      `${key}: not wrapped: ${docInline(entry.reasons.map((r) => r.detail).join('; ')) || 'no mechanism applies'}.`,
    );
  else lines.push(key);
  if (entry.effect === 'write' && auditLink !== undefined) lines.push(`@see ${auditLink}`);
  if (op.deprecated) lines.push('@deprecated');
  return lines.join('\n');
}

interface ClassDocUse {
  writes: boolean;
  /** Some write is method-idempotent (PUT/DELETE safe to repeat, no key). */
  byMethod?: boolean;
  /** Some write takes `{ scope }` (intent key). */
  scope: boolean;
  /** Some write is content-keyed (OP-3): the key option is optional. */
  content: boolean;
  /** Per-method `@see` links into the audit report exist. */
  audit: boolean;
}

/** The class doc: the prose every write shares, said once. */
export function classDoc(use: ClassDocUse, clientClass: string): string {
  const lines = ['Typed client: one method per operation. Reads are plain calls.'];
  if (use.writes) {
    lines.push(
      'A write is made safe to retry by the mechanism its doc names and resolves to',
      '`{ result, wasReplay, originalCalledAt }`. Its key option:',
      '- `{ key }`: a key persisted in your state before the call, reused on every retry.',
    );
    if (use.scope)
      lines.push(
        '- `{ scope }` (thread/turn/run/node ids): the key is the intent hash of scope + operation + arguments.',
      );
    if (use.content)
      lines.push('- none, for a content-keyed write (OP-3): the key is the hash of the canonical request.');
  }
  if (use.byMethod === true)
    lines.push(
      'A `method-idempotent` write is safe to repeat by HTTP method semantics (RFC 9110 §9.2.2): no key, no store;',
      'an ambiguous outcome is retried, and a retried DELETE that finds the resource gone resolves `{ result: null, wasReplay: true }`.',
    );
  if (use.audit)
    lines.push("Each write's `@see` is its row in the audit report: carrier, key strategy, TTL and the reasons.");
  lines.push(
    `A non-2xx answer rejects with \`HttpStatusError\`; \`${clientClass}.errorOf(operation, err)\` types its body.`,
  );
  return lines.join('\n');
}
