/**
 * Step 0: does the operation have a side effect? (docs/concepts.md#mechanisms; docs/concepts.md#side-effects "do not activate when the tool
 * is read-only"). Every conclusion carries the rule that produced it.
 */
import type { HttpOperation, Operation, ToolOperation } from '../ir/types.js';
import { addFinding, extension, findOverride, reason, type ClassifyContext } from './context.js';
import { EFFECT_VERBS, isKeyField } from './heuristics.js';
import type { Effect, Reason } from './types.js';

export interface EffectResult {
  effect: Effect;
  reasons: Reason[];
}

/** RFC 9110 §9.2.1: GET, HEAD, OPTIONS and TRACE are safe methods. */
const SAFE_METHODS = new Set(['get', 'head', 'options', 'trace']);

/** Split `create_or_update_file`, `get-env`, `getFoo`, `HTTPFetch` into lower-case words. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/**
 * The side-effect verb a tool description opens with ("Create a payout", "Deletes a card"), from
 * EFFECT_VERBS only; the first sentence's first word, third person folded (`creates` → `create`).
 */
export function descriptionEffectVerb(description: string | undefined): string | undefined {
  const first = nameWords((description ?? '').trim().split(/[.:;\n]/)[0] ?? '')[0];
  if (!first) return undefined;
  return [first, first.replace(/es$/, ''), first.replace(/s$/, '')].find((w) => EFFECT_VERBS.has(w));
}

/** The first word of the name that is a known verb, and which list it is on. */
function nameVerb(name: string, ctx: ClassifyContext): { verb: string; kind: 'read' | 'write' } | undefined {
  for (const w of nameWords(name)) {
    if (ctx.h.writeVerbs.has(w)) return { verb: w, kind: 'write' };
    if (ctx.h.readVerbs.has(w)) return { verb: w, kind: 'read' };
  }
  return undefined;
}

function isExempt(value: unknown): boolean {
  return (
    value === 'exempt' ||
    (typeof value === 'object' && value !== null && (value as Record<string, unknown>).exempt === true)
  );
}

export function classifyEffect(op: Operation, ctx: ClassifyContext): EffectResult {
  const ov = findOverride(ctx, op);
  if (ov?.override.effect) {
    return {
      effect: ov.override.effect,
      reasons: [reason('override_effect', `config.overrides["${ov.key}"].effect = ${ov.override.effect}`)],
    };
  }
  if (isExempt(extension(op, 'x-idempotency'))) {
    return {
      effect: 'read',
      reasons: [
        reason(
          'extension_exempt',
          'x-idempotency: exempt marks this write-shaped call as a query',
          `${op.source.pointer}/x-idempotency`,
        ),
      ],
    };
  }
  return op.kind === 'http' ? httpEffect(op) : toolEffect(op, ctx);
}

/** The reason an HTTP method alone gives for an effect (the JSON report leaves it out when nothing else says more). */
export function methodEffectReason(method: string, effect: Effect, pointer: string | undefined): Reason {
  const m = method.toUpperCase();
  return effect === 'read'
    ? reason('http_safe_method', `${m} is a safe method (RFC 9110 §9.2.1)`, pointer)
    : reason('http_unsafe_method', `${m} changes server state (RFC 9110 §9.2.1)`, pointer);
}

function httpEffect(op: HttpOperation): EffectResult {
  const effect = SAFE_METHODS.has(op.method) ? 'read' : 'write';
  return { effect, reasons: [methodEffectReason(op.method, effect, op.source.pointer)] };
}

type Verb = ReturnType<typeof nameVerb>;

function toolEffect(op: ToolOperation, ctx: ClassifyContext): EffectResult {
  const a = op.annotations;
  const at = `${op.source.pointer}/annotations`;
  const verb = nameVerb(op.toolName, ctx);
  if (a?.readOnlyHint === true && a.destructiveHint === true) return bothHintsEffect(op, ctx, at);
  if (a?.readOnlyHint === true) return readOnlyHintEffect(op, ctx, verb, at);
  const reasons = writeEvidence(op, ctx, verb, at);
  if (reasons.length > 0) return { effect: 'write', reasons };
  return unannotatedEffect(op, verb);
}

/** readOnlyHint and destructiveHint both true: a finding, and destructive wins. */
function bothHintsEffect(op: ToolOperation, ctx: ClassifyContext, at: string): EffectResult {
  addFinding(
    ctx,
    'ambiguous_tool_effect',
    `tool ${op.toolName} is annotated both readOnlyHint and destructiveHint; treated as a write`,
    at,
  );
  return {
    effect: 'write',
    reasons: [
      reason(
        'tool_destructive_hint',
        'readOnlyHint and destructiveHint are both true; destructive wins (fail safe)',
        at,
      ),
    ],
  };
}

/** readOnlyHint: true, unless a side-effect verb (name or description) or a key in the input schema contradicts it. */
function readOnlyHintEffect(op: ToolOperation, ctx: ClassifyContext, verb: Verb, at: string): EffectResult {
  // A hint never makes a write look safe: a side-effect verb in the name or leading the
  // description, or an idempotency key in the input schema, outweighs readOnlyHint (the audit
  // reports read_only_hint_contradicts_name).
  const described = descriptionEffectVerb(op.description);
  const props = typeof op.inputSchema === 'object' ? op.inputSchema.properties : undefined;
  const keyField =
    props && typeof props === 'object' ? Object.keys(props).find((p) => isKeyField(p, ctx.h)) : undefined;
  const says =
    verb?.kind === 'write' && EFFECT_VERBS.has(verb.verb)
      ? reason('tool_write_verb', `name verb "${verb.verb}" is a side-effect verb`, op.source.pointer)
      : described
        ? reason(
            'tool_description_verb',
            `the description opens with "${described}", a side-effect verb`,
            op.source.pointer,
          )
        : keyField
          ? reason(
              'tool_schema_key',
              `the input schema takes ${keyField}, an idempotency key: only a write needs one`,
              op.source.pointer,
            )
          : undefined;
  if (says)
    return {
      effect: 'write',
      reasons: [
        says,
        reason(
          'tool_read_only_hint_contradicted',
          'annotations.readOnlyHint: true is contradicted and not trusted (a hint never makes a write look safe)',
          `${at}/readOnlyHint`,
        ),
      ],
    };
  return {
    effect: 'read',
    reasons: [reason('tool_read_only_hint', 'annotations.readOnlyHint: true', `${at}/readOnlyHint`)],
  };
}

/** The write evidence of a tool without readOnlyHint: destructiveHint, readOnlyHint false, a write verb. */
function writeEvidence(op: ToolOperation, ctx: ClassifyContext, verb: Verb, at: string): Reason[] {
  const a = op.annotations;
  const reasons: Reason[] = [];
  if (a?.destructiveHint === true) {
    if (verb?.kind === 'read') {
      addFinding(
        ctx,
        'ambiguous_tool_effect',
        `tool ${op.toolName} reads by its name (${verb.verb}) but is annotated destructiveHint: true; treated as a write`,
        `${at}/destructiveHint`,
      );
    }
    reasons.push(reason('tool_destructive_hint', 'annotations.destructiveHint: true', `${at}/destructiveHint`));
  }
  if (a?.readOnlyHint === false)
    reasons.push(reason('tool_not_read_only_hint', 'annotations.readOnlyHint: false', `${at}/readOnlyHint`));
  if (verb?.kind === 'write')
    reasons.push(reason('tool_write_verb', `name verb "${verb.verb}" is a side-effect verb`, op.source.pointer));
  return reasons;
}

/** No write evidence: a read verb reads; otherwise the MCP default or idemgen's fail-safe default says write. */
function unannotatedEffect(op: ToolOperation, verb: Verb): EffectResult {
  const a = op.annotations;
  // A read verb with no write evidence reads, even without MCP annotations: the name is the only
  // statement the author made (docs/concepts.md#mechanisms); the MCP default applies when nothing is said.
  if (verb?.kind === 'read') {
    const note =
      op.format === 'mcp' && a === undefined ? ' (no annotations: annotate readOnlyHint to make it explicit)' : '';
    return {
      effect: 'read',
      reasons: [
        reason('tool_read_verb', `name verb "${verb.verb}" reads and nothing says it writes${note}`, op.source.pointer),
      ],
    };
  }
  if (op.format === 'mcp' && a === undefined) {
    return {
      effect: 'write',
      reasons: [
        reason(
          'mcp_default_not_read_only',
          'no annotations and no verb: the MCP default is readOnlyHint false, destructiveHint true',
          op.source.pointer,
        ),
      ],
    };
  }
  return {
    effect: 'write',
    reasons: [
      reason(
        'tool_default_write',
        'no read-only evidence: a tool is assumed to have side effects (fail safe)',
        op.source.pointer,
      ),
    ],
  };
}
