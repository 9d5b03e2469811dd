/**
 * JSDoc text of a client method: what the operation does, and for writes the classification that shaped
 * the wrapper (class, mechanism, carrier, key strategy, TTL) with the reasons behind it, so a reader of the
 * generated file can dispute a decision without opening the audit report.
 */
import type { Carrier, PlanEntry } from '../../classify/types.js';
import { docInline, docLines } from './schema-type.js';

function carrierText(carrier: Carrier | null): string {
  if (carrier === null) return 'none (the key stays in the dedup store)';
  const limit = carrier.maxLength !== undefined ? `, ≤ ${carrier.maxLength} chars` : '';
  return `${carrier.in} \`${docInline(carrier.name)}\`${limit}`;
}

function ttlText(ttl: number | undefined): string {
  if (ttl === undefined) return 'runtime default';
  return ttl % 3600 === 0 ? `${ttl} s (${ttl / 3600} h)` : `${ttl} s`;
}

/** `summary` wins over `description`; spec text goes through `docLines`/`docInline` (src/escape/comment.ts). */
function summaryLines(entry: PlanEntry): string[] {
  const op = entry.operation;
  const text = op.summary ?? op.description;
  const lines = text !== undefined && text.trim() !== '' ? docLines(text.trim()) : [];
  return [...lines, ...(lines.length > 0 ? [''] : []), `\`${docInline(op.key)}\``];
}

export function methodDoc(entry: PlanEntry, keyOptionsText: string | undefined): string {
  const lines = summaryLines(entry);
  if (entry.effect === 'write' && entry.mechanism !== 'none') {
    lines.push(
      '',
      `Class: ${entry.class}. Mechanism: ${entry.mechanism}${entry.toolBoundary ? ` + ${entry.toolBoundary}` : ''}.`,
      `Key carrier: ${carrierText(entry.carrier)}. Key strategy: ${entry.keyStrategy ?? 'key or intent scope'}. TTL: ${ttlText(entry.ttlSeconds)}.`,
    );
    if (entry.compensation !== undefined) lines.push(`Compensation: \`${docInline(entry.compensation)}\`.`);
    if (entry.methodIdempotent === true) lines.push('Idempotent by method semantics (RFC 9110 §9.2.2), still a side effect.');
    if (keyOptionsText !== undefined) lines.push(keyOptionsText);
    lines.push('', 'Why:');
    for (const r of entry.reasons) lines.push(...docLines(`- ${r.rule}: ${r.detail}${r.pointer !== undefined ? ` (${r.pointer})` : ''}`));
    lines.push('', '@returns `{ result, wasReplay, originalCalledAt }` (SOP Step 7).');
  } else if (entry.effect === 'write') {
    lines.push('', `Not wrapped: ${docInline(entry.reasons.map((r) => r.detail).join('; ')) || 'no mechanism applies'}.`);
  }
  if (entry.operation.deprecated) lines.push('@deprecated');
  return lines.join('\n');
}
