/**
 * One operation through the mechanism order (docs/concepts.md#mechanisms): effect → native key → owned store →
 * compensatable → irreversible; the first step that decides wins. Overrides apply on top.
 */
import type { OperationOverride } from '../config/types.js';
import { mechanismOf } from '../config/vocabulary.js';
import type { Operation } from '../ir/types.js';
import { addressCompensation, findCompensation } from './compensation.js';
import { findVerification } from './verification.js';
import { addFinding, findOverride, reason, type ClassifyContext } from './context.js';
import { classifyEffect } from './effect.js';
import { addEntryFindings } from './entry-findings.js';
import { findNativeKey, findToolKey } from './native-key.js';
import { methodSemantics, reportContradictedMethod } from './method-semantics.js';
import { findOwnedStore } from './owned-store.js';
import {
  completeCarrier,
  type Carrier,
  type KeyStrategy,
  type Mechanism,
  type OperationClass,
  type PlanEntry,
  type Reason,
} from './types.js';

interface Decision {
  class: OperationClass;
  mechanism: Mechanism;
  carrier: Carrier | null;
  ttlSeconds?: number;
  compensation?: string;
  reasons: Reason[];
}

/** classify's one reason for every read (its `pointer` is the operation's); the audit's JSON leaves it out. */
export const READ_ONLY_REASON: Readonly<Omit<Reason, 'pointer'>> = {
  rule: 'read_only',
  detail: 'no side effect: a plain call',
};

export const CLASS_OF: Readonly<Record<Mechanism, OperationClass>> = {
  none: 'read-only',
  'native-key': 'native-key',
  'dedup-table': 'owned-store',
  'content-address': 'owned-store',
  'unique-insert': 'owned-store',
  saga: 'compensatable',
  'fail-closed': 'irreversible',
  'method-idempotent': 'method-idempotent',
};

function defaultCarrier(op: Operation): Carrier {
  return op.kind === 'tool'
    ? { in: 'argument', name: 'idempotency_key', path: ['idempotency_key'], required: true }
    : { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'] };
}

function nativeOf(op: Operation, ctx: ClassifyContext) {
  return op.kind === 'http' ? findNativeKey(op, ctx) : findToolKey(op, ctx);
}

/** Steps 1–4 without overrides. */
function decideTree(op: Operation, ctx: ClassifyContext): Decision {
  const native = nativeOf(op, ctx);
  if (native)
    return {
      class: 'native-key',
      mechanism: 'native-key',
      carrier: native.carrier,
      ttlSeconds: native.ttlSeconds,
      reasons: native.reasons,
    };
  const owned = findOwnedStore(op, ctx);
  // A content-addressed PUT to our own store keeps OP-3 (create-if-absent also detects a lost first write).
  const method = methodSemantics(op);
  if (method.kind === 'idempotent' && owned?.mechanism !== 'content-address')
    return { class: 'method-idempotent', mechanism: 'method-idempotent', carrier: null, reasons: method.reasons };
  if (owned) return { class: 'owned-store', mechanism: owned.mechanism, carrier: null, reasons: owned.reasons };
  const comp = findCompensation(op, ctx);
  if (comp)
    return {
      class: 'compensatable',
      mechanism: 'saga',
      carrier: null,
      compensation: comp.compensation,
      reasons: comp.reasons,
    };
  const detail =
    'no native key, not our store, no inverse operation: fail closed (a pending row blocks a second call; an ambiguous outcome is never retried automatically)';
  return {
    class: 'irreversible',
    mechanism: 'fail-closed',
    carrier: null,
    reasons: [reason('irreversible', detail, op.source.pointer)],
  };
}

/** `config.overrides` beat every inferred step (docs/concepts.md#mechanisms "overridable"). */
function decide(op: Operation, ctx: ClassifyContext): Decision {
  const found = findOverride(ctx, op);
  const tree = decideTree(op, ctx);
  if (!found) return tree;
  const { key, override } = found;
  const at = `config.overrides["${key}"]`;
  const mechanism =
    (override.mechanism === undefined ? undefined : mechanismOf(override.mechanism)) ??
    (override.carrier ? 'native-key' : tree.mechanism);
  if (mechanism === tree.mechanism && override.carrier === undefined) return tree;
  if (mechanism === 'method-idempotent' && op.kind !== 'http') {
    // A tool has no HTTP method whose semantics could make a repeat harmless.
    addFinding(
      ctx,
      'method_semantics_contradicted',
      `${at} sets mechanism method-idempotent on tool ${op.name}, which has no HTTP method: ignored, kept ${tree.mechanism}`,
      op.source.pointer,
      { severity: 'warning' },
    );
    return tree;
  }
  const d: Decision = {
    class: CLASS_OF[mechanism],
    mechanism,
    carrier: null,
    reasons: [reason('override_mechanism', `${at} sets mechanism ${mechanism}`)],
  };
  if (mechanism === 'native-key') {
    d.carrier = override.carrier ? completeCarrier(override.carrier) : (tree.carrier ?? defaultCarrier(op));
    if (override.carrier)
      d.reasons.push(reason('override_carrier', `${at}.carrier = ${override.carrier.in} ${override.carrier.name}`));
    if (tree.mechanism === 'native-key') d.ttlSeconds = tree.ttlSeconds;
  }
  if (mechanism === 'saga') {
    const comp = tree.compensation ?? findCompensation(op, ctx)?.compensation;
    if (comp !== undefined) d.compensation = comp;
  }
  return d;
}

function defaultKeyStrategy(op: Operation, d: Decision): KeyStrategy | null {
  if (d.mechanism === 'none' || d.mechanism === 'method-idempotent') return null;
  if (d.mechanism === 'content-address') return 'content';
  if (op.kind === 'tool') return 'intent';
  if (d.mechanism === 'saga' || d.mechanism === 'fail-closed') return 'intent';
  return 'caller';
}

function applyTail(
  entry: PlanEntry,
  op: Operation,
  d: Decision,
  ctx: ClassifyContext,
  override?: OperationOverride,
): void {
  const defaultTtl = op.kind === 'tool' ? ctx.config.tools.defaultTtlSeconds : ctx.config.defaultTtlSeconds;
  const ttl = override?.ttlSeconds ?? (d.mechanism === 'native-key' && op.kind === 'http' ? d.ttlSeconds : defaultTtl);
  // Nothing is remembered for `method-idempotent`: no window to state.
  if (ttl !== undefined && d.mechanism !== 'none' && d.mechanism !== 'method-idempotent') entry.ttlSeconds = ttl;
  if (d.compensation !== undefined) {
    entry.compensation = d.compensation;
    const addressed = addressCompensation(op, d.compensation, ctx);
    if (addressed?.address !== undefined) entry.compensationAddress = addressed.address;
    if (addressed !== undefined) entry.reasons.push(addressed.reason);
  }
  if (d.mechanism === 'fail-closed' || d.mechanism === 'dedup-table' || d.mechanism === 'saga') {
    const plan = findVerification(op, ctx, override, findOverride(ctx, op)?.key);
    if (plan !== undefined) {
      entry.verification = plan.plan;
      entry.reasons.push(plan.reason);
    }
  }
  if (override?.table !== undefined) entry.ownedTable = override.table;
  if (override?.keyStrategy !== undefined) entry.keyStrategy = override.keyStrategy;
  if (override?.impact !== undefined) entry.impact = override.impact;
}

export function classifyOperation(op: Operation, ctx: ClassifyContext): PlanEntry {
  const eff = classifyEffect(op, ctx);
  const override = findOverride(ctx, op)?.override;
  const entry: PlanEntry = {
    operation: op,
    effect: eff.effect,
    effectReasons: eff.reasons,
    class: 'read-only',
    mechanism: 'none',
    carrier: null,
    keyStrategy: null,
    reasons: [],
  };
  if (op.kind === 'http' && (op.method === 'put' || op.method === 'delete')) {
    entry.methodIdempotent = true;
  }
  // Reads too: a slow export needs its time whatever its effect.
  if (override?.timeoutMs !== undefined) entry.timeoutMs = override.timeoutMs;
  if (eff.effect === 'read') {
    entry.reasons.push(reason(READ_ONLY_REASON.rule, READ_ONLY_REASON.detail, op.source.pointer));
    return entry;
  }
  const d = decide(op, ctx);
  Object.assign(entry, {
    class: d.class,
    mechanism: d.mechanism,
    carrier: d.carrier,
    keyStrategy: defaultKeyStrategy(op, d),
    reasons: [...d.reasons],
  });
  if (op.kind === 'tool') {
    entry.toolBoundary = 'tool-dedup';
    entry.reasons.push(
      reason(
        'tool_boundary',
        'side-effecting tool: idempotency_key required and deduped at the tool boundary (tool-dedup)',
        op.source.pointer,
      ),
    );
  }
  if (entry.methodIdempotent && entry.mechanism !== 'method-idempotent') {
    const m = op.kind === 'http' ? op.method.toUpperCase() : '';
    entry.reasons.push(
      reason(
        'method_idempotent',
        `${m} is idempotent by method semantics (RFC 9110 §9.2.2) but still a side effect: classified, not skipped`,
        op.source.pointer,
      ),
    );
  }
  applyTail(entry, op, d, ctx, override);
  if (ctx.entryFindings) {
    reportContradictedMethod(entry, ctx);
    addEntryFindings(entry, ctx);
  }
  return entry;
}
