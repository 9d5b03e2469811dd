import type { PlanEntry } from './types.js';
import { diagnostic, type Diagnostic, type Severity } from '../diagnostics/diagnostic.js';
import { stateKeyField } from '@idemgen/runtime/internal/langgraph/state-field.js';

/**
 * Audit rule `key_not_resume_safe`: would the key of this write survive a framework resume
 * (a LangGraph node body re-runs from the top, docs/concepts.md#outcomes / OP-6) and still tell new intents apart
 * (docs/concepts.md#repeated-intent)? Pure: entries in, diagnostics out, in entry order.
 */
export const KEY_NOT_RESUME_SAFE = 'key_not_resume_safe';

export interface ResumeSafetyOptions {
  /**
   * Fields the agent state declares (and so checkpoints). When given, a `caller` key without its
   * `{operation}_idempotency_key` slot is a warning; when unknown, the slot is only a reminder (info).
   */
  stateFields?: readonly string[];
  /** Config `severities`: `key_not_resume_safe` → a severity or 'off'. */
  severities?: Readonly<Record<string, Severity | 'off'>>;
}

interface Finding {
  severity: Severity;
  message: string;
  hint: string;
}

function checkCaller(entry: PlanEntry, fields: ReadonlySet<string> | undefined): Finding | undefined {
  const slot = stateKeyField(entry.operation.key);
  if (fields?.has(slot) === true) return undefined;
  const known = fields !== undefined;
  return {
    severity: known ? 'warning' : 'info',
    message: known
      ? `${entry.operation.key}: caller key has no persisted state slot "${slot}"; a key minted in the node body changes on every resume`
      : `${entry.operation.key}: caller key must be persisted in the state slot "${slot}" before the call`,
    hint: `Mint the key in an upstream node and return it into "${slot}" (mintStateKey), or derive it from the task (nodeIdempotencyKey); see docs/concepts.md#checkpoint-keys.`,
  };
}

function checkContent(entry: PlanEntry): Finding | undefined {
  // OP-3 writes are content-addressed: the same content *is* the same effect.
  if (entry.mechanism === 'content-address') return undefined;
  return {
    severity: 'warning',
    message: `${entry.operation.key}: a content key swallows a new intent with the same arguments (a second, wanted send is dropped)`,
    hint: 'Key on the intent (thread/turn/task + operation), not the content: a hash of the arguments alone makes a user who asks twice one action (docs/concepts.md#good-keys).',
  };
}

function checkMissing(entry: PlanEntry): Finding | undefined {
  if (entry.mechanism === 'content-address') return undefined;
  return {
    severity: 'error',
    message: `${entry.operation.key}: side-effecting operation without a key strategy; a resumed node body repeats the call`,
    hint: 'Set keyStrategy (intent for agent tools) in the config override: a node that re-runs on resume needs a key that survives it (docs/concepts.md#checkpoint-keys).',
  };
}

function checkEntry(entry: PlanEntry, fields: ReadonlySet<string> | undefined): Finding | undefined {
  if (entry.effect === 'read' || entry.mechanism === 'none') return undefined;
  // No key at all: a resumed node body repeats the PUT/DELETE, which its method makes harmless.
  if (entry.mechanism === 'method-idempotent') return undefined;
  const strategy = entry.keyStrategy;
  switch (strategy) {
    case null:
      return checkMissing(entry);
    case 'caller':
      return checkCaller(entry, fields);
    case 'content':
      return checkContent(entry);
    case 'intent':
      // Derived from a checkpointed scope (task/turn) + operation: stable on resume, new per intent.
      return undefined;
    default: {
      const unhandled: never = strategy;
      throw new Error(`unhandled key strategy ${String(unhandled)}`);
    }
  }
}

export function checkResumeSafety(entries: readonly PlanEntry[], options: ResumeSafetyOptions = {}): Diagnostic[] {
  const override = options.severities?.[KEY_NOT_RESUME_SAFE];
  if (override === 'off') return [];
  const fields = options.stateFields === undefined ? undefined : new Set(options.stateFields);
  const out: Diagnostic[] = [];
  for (const entry of entries) {
    const finding = checkEntry(entry, fields);
    if (finding === undefined) continue;
    out.push(
      diagnostic(KEY_NOT_RESUME_SAFE, override ?? finding.severity, finding.message, {
        file: entry.operation.source.file,
        pointer: entry.operation.source.pointer,
        hint: finding.hint,
      }),
    );
  }
  return out;
}
