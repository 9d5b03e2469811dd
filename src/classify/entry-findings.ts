/** Audit findings about one classified write (rule ids in rules.ts). */
import { addFinding, toolSchemaPointer, type ClassifyContext } from './context.js';
import type { PlanEntry } from './types.js';

/** Below this a random key has too little entropy (a UUID needs 36 characters, 128 bits 22 base64url). */
export const MIN_KEY_LENGTH = 16;

export function addEntryFindings(entry: PlanEntry, ctx: ClassifyContext): void {
  const op = entry.operation;
  const at = op.source.pointer;
  if (entry.mechanism === 'fail-closed') {
    // PUT/DELETE repeat harmlessly by method semantics (RFC 9110 §9.2.2): reported, at lower severity.
    const severity = entry.methodIdempotent ? 'info' : undefined;
    addFinding(ctx, 'write_without_key_mechanism', `${op.key} writes with no idempotency key, store or inverse: fail-closed, ambiguous outcomes need manual reconciliation`, at, {
      severity,
      hint: 'declare the API key header (or config heuristics.providers), mark the store owned (config.owned), or name an inverse (x-compensation)',
    });
  }
  if (entry.mechanism === 'OP-5' && entry.compensation === undefined) {
    addFinding(ctx, 'compensation_target_missing', `${op.key} is set to OP-5 but no compensating operation is named or inferred`, at);
  }
  if (op.kind === 'tool' && entry.effect === 'write') {
    const c = entry.carrier;
    if (c?.in !== 'argument') {
      addFinding(ctx, 'tool_missing_required_key', `tool ${op.toolName} has side effects but no idempotency_key argument; the generated schema requires one (OP-7)`, toolSchemaPointer(op));
    } else if (c.required !== true) {
      addFinding(ctx, 'tool_missing_required_key', `tool ${op.toolName} has the key argument ${c.name} but does not require it`, toolSchemaPointer(op));
    }
  }
  const max = entry.carrier?.maxLength;
  if (max !== undefined && max < MIN_KEY_LENGTH) {
    addFinding(ctx, 'key_carrier_too_short', `${op.key}: key carrier ${entry.carrier!.name} allows only ${max} characters; fewer than ${MIN_KEY_LENGTH} leaves too little entropy, so distinct intents can collide and replay each other`, at);
  }
}
