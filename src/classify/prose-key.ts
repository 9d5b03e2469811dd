/**
 * Prose-only idempotency (docs/concepts.md#mechanisms): the description promises that the API deduplicates by a key,
 * but nothing declares where the key goes. That is not evidence enough for OP-1 (the name and place of
 * the key are guesses), so the operation keeps its class and the audit offers the override to paste.
 */
import type { HttpOperation } from '../ir/types.js';
import { addFinding, findOverride, type ClassifyContext } from './context.js';
import type { PlanEntry } from './types.js';

/** Sentences that name a key the server dedupes on, not mere method idempotency ("PUT is idempotent"). */
const PROMISES: readonly RegExp[] = [
  /\bidempoten(?:cy|ce|t)[\s_-]*(?:key|token)s?\b/i,
  /\bdedup(?:e|es|ed|licat\w*)\b[^.]{0,80}\b(?:key|token)s?\b/i,
  /\b(?:key|token)s?\b[^.]{0,80}\bdedup(?:e|es|ed|licat\w*)\b/i,
];

/** A header name written in the prose (`Idempotency-Key`, `X-Acme-Idempotency-Key`). */
const HEADER_IN_PROSE = /\b((?:[A-Za-z0-9]+-)*Idempotency-(?:Key|Token))\b/i;

function prosePromise(op: HttpOperation): { quote: string; header: string } | undefined {
  const text = [op.summary, op.description].filter((t): t is string => typeof t === 'string').join('\n');
  for (const re of PROMISES) {
    const m = re.exec(text);
    if (!m) continue;
    const header = HEADER_IN_PROSE.exec(text)?.[1] ?? 'Idempotency-Key';
    return { quote: m[0].replace(/\s+/g, ' ').slice(0, 120), header };
  }
  return undefined;
}

/** Info finding with a ready-to-paste `overrides` entry for a write that found no carrier. */
export function reportProseOnlyKey(entry: PlanEntry, ctx: ClassifyContext): void {
  const op = entry.operation;
  if (op.kind !== 'http' || entry.effect !== 'write' || entry.mechanism === 'native-key') return;
  if (findOverride(ctx, op) !== undefined) return;
  const promise = prosePromise(op);
  if (!promise) return;
  const override = {
    overrides: { [op.key]: { mechanism: 'native-key', carrier: { in: 'header', name: promise.header } } },
  };
  addFinding(
    ctx,
    'prose_only_idempotency',
    `${op.key}: the description promises deduplication ("${promise.quote}") but declares no key carrier; classified ${entry.mechanism} until the carrier is confirmed`,
    op.source.pointer,
    {
      hint: `if the API takes the key in header ${promise.header}, add to idemgen.config.json: ${JSON.stringify(override)}`,
    },
  );
}
