/** Audit findings about one classified write (rule ids in rules.ts). */
import { addFinding, findOverride, toolSchemaPointer, type ClassifyContext } from './context.js';
import { reportPossibleKeyCarriers } from './native-key.js';
import { loweredSeverity } from './rules.js';
import { reportProseOnlyKey } from './prose-key.js';
import { queryOverrideHint, queryPostEvidence, type QueryEvidence } from './query-post.js';
import type { PlanEntry } from './types.js';

/** Below this a random key has too little entropy (a UUID needs 36 characters, 128 bits 22 base64url). */
const MIN_KEY_LENGTH = 16;

const KEY_HINT =
  'declare the API key header (or config heuristics.providers), mark the store owned (config.owned), or name an inverse (x-compensation)';

/** A POST named like a query, unless the user already stated its effect in config. */
function queryEvidence(entry: PlanEntry, ctx: ClassifyContext): QueryEvidence | undefined {
  const op = entry.operation;
  if (op.kind !== 'http' || entry.effect !== 'write') return undefined;
  if (findOverride(ctx, op)?.override.effect !== undefined) return undefined;
  return queryPostEvidence(op, ctx.h);
}

export function addEntryFindings(entry: PlanEntry, ctx: ClassifyContext): void {
  const op = entry.operation;
  const at = op.source.pointer;
  const query = queryEvidence(entry, ctx);
  if (query && op.kind === 'http') {
    // OP-1 is safe either way (the API dedupes), so a query-looking native-key POST is only a note.
    const severity = entry.mechanism === 'native-key' ? loweredSeverity('probable_query_post') : undefined;
    addFinding(
      ctx,
      'probable_query_post',
      `${op.key} looks like a query (${query.source} starts or ends with "${query.verb}") but POST is classified as a write (${entry.mechanism})`,
      at,
      {
        severity,
        hint: queryOverrideHint(op),
      },
    );
  }
  if (entry.mechanism === 'fail-closed') {
    // PUT/DELETE repeat harmlessly by method semantics (RFC 9110 §9.2.2): reported, at lower severity.
    const severity = entry.methodIdempotent ? loweredSeverity('write_without_key_mechanism') : undefined;
    const hint =
      query && op.kind === 'http'
        ? `${KEY_HINT}; or, since it looks like a query, set overrides[…].effect: read — ${queryOverrideHint(op)}`
        : KEY_HINT;
    addFinding(
      ctx,
      'write_without_key_mechanism',
      `${op.key} writes with no idempotency key, store or inverse: fail-closed, ambiguous outcomes need manual reconciliation`,
      at,
      { severity, hint },
    );
  }
  if (entry.mechanism === 'saga' && entry.compensation === undefined) {
    addFinding(
      ctx,
      'compensation_target_missing',
      `${op.key} is set to saga but no compensating operation is named or inferred`,
      at,
    );
  }
  if (op.kind === 'tool' && entry.effect === 'write') {
    const c = entry.carrier;
    if (c?.in !== 'argument') {
      addFinding(
        ctx,
        'tool_missing_required_key',
        `tool ${op.toolName} has side effects but no idempotency_key argument; the generated schema requires one (tool-dedup)`,
        toolSchemaPointer(op),
      );
    } else if (c.required !== true) {
      addFinding(
        ctx,
        'tool_missing_required_key',
        `tool ${op.toolName} has the key argument ${c.name} but does not require it`,
        toolSchemaPointer(op),
      );
    }
  }
  reportProseOnlyKey(entry, ctx);
  reportPossibleKeyCarriers(entry, ctx);
  const max = entry.carrier?.maxLength;
  if (max !== undefined && max < MIN_KEY_LENGTH) {
    addFinding(
      ctx,
      'key_carrier_too_short',
      `${op.key}: key carrier ${entry.carrier!.name} allows only ${max} characters; fewer than ${MIN_KEY_LENGTH} leaves too little entropy, so distinct intents can collide and replay each other`,
      at,
    );
  }
}
