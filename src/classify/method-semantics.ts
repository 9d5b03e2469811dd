/**
 * Method semantics as a mechanism of its own (`method-idempotent`). RFC 9110 §9.2.2: a DELETE of
 * an addressed resource and a PUT that replaces the resource at the URI the client chose leave the same
 * state however often they arrive, so an ambiguous outcome may be retried with no key and no store.
 *
 * Only when the spec does not say otherwise: a path whose last segment names an action
 * (`/charges/{id}/cancel`, `/v1/{name}:run`), a summary or description that opens with an action verb
 * ("Cancels…", "Sends…") or states that a repeat adds an effect ("each call creates…", "not idempotent").
 * Collection-level DELETE (`DELETE /items`, no path parameter), PUT without a client-chosen id, POST,
 * PATCH and tools never qualify.
 */
import type { HttpOperation, Operation } from '../ir/types.js';
import { addFinding, findOverride, reason, type ClassifyContext } from './context.js';
import type { PlanEntry, Reason } from './types.js';

export type MethodSemantics =
  | { kind: 'idempotent'; reasons: Reason[] }
  /** PUT/DELETE of an addressed resource, but the spec contradicts method semantics. */
  | { kind: 'contradicted'; evidence: string }
  /** Not a PUT/DELETE of an addressed resource: the rule does not apply. */
  | { kind: 'none' };

/**
 * Verbs whose repeat may repeat the effect, read where the spec's prose opens ("Cancels a subscription…").
 * Narrow on purpose: the verbs a PUT/DELETE summary usually opens with ("Updates", "Adds", "Removes",
 * "Sets", "Replaces", "Deletes") describe a state and do not contradict.
 */
const PROSE_ACTIONS = new Set([
  'cancel',
  'capture',
  'charge',
  'dispatch',
  'execute',
  'fire',
  'invoke',
  'launch',
  'notify',
  'pay',
  'reboot',
  'refund',
  'resend',
  'restart',
  'retry',
  'run',
  'send',
  'submit',
  'transfer',
  'trigger',
  'void',
]);

/**
 * Verbs that, as the last segment of a path, make it an RPC-style action (`/charges/{id}/cancel`,
 * `/pulls/{n}/merge`, `/jobs/{id}/run`) rather than a resource a PUT replaces or a DELETE removes.
 */
const PATH_ACTIONS = new Set([
  ...PROSE_ACTIONS,
  'accept',
  'activate',
  'apply',
  'approve',
  'attach',
  'authorize',
  'build',
  'call',
  'clear',
  'clone',
  'close',
  'complete',
  'confirm',
  'copy',
  'deactivate',
  'decline',
  'deploy',
  'detach',
  'disconnect',
  'distribute',
  'export',
  'finalize',
  'flush',
  'generate',
  'halt',
  'import',
  'increment',
  'install',
  'mark',
  'merge',
  'move',
  'process',
  'promote',
  'provision',
  'publish',
  'push',
  'rebuild',
  'recover',
  'redeploy',
  'refresh',
  'regenerate',
  'reindex',
  'reject',
  'reload',
  'renew',
  'reopen',
  'reply',
  'reset',
  'restore',
  'resume',
  'reverse',
  'revoke',
  'rotate',
  'scale',
  'start',
  'stop',
  'suspend',
  'sync',
  'test',
  'update',
  'upgrade',
  'upload',
  'verify',
  'wipe',
]);

/** `cancels` → `cancel`, `triggered` → `trigger`, `sending` → `send`; only to look a word up in a verb set. */
function verbStem(word: string, verbs: ReadonlySet<string>): string {
  const w = word.toLowerCase();
  const candidates = [w, w.replace(/es$/, ''), w.replace(/s$/, ''), w.replace(/ed$/, ''), w.replace(/d$/, '')];
  candidates.push(w.replace(/ing$/, ''), w.replace(/ing$/, 'e'));
  return candidates.find((c) => verbs.has(c)) ?? w;
}

/** `mark_uncollectible` → `mark`, `sendInvoice` → `send`, `re-send` → `re`: the segment's first word. */
/** A path segment that names an RPC-style action (`capture`, `cancel`, `:run`), not a collection or a resource. */
export function isActionSegment(segment: string): boolean {
  return /:[A-Za-z][\w-]*$/.test(segment) || PATH_ACTIONS.has(firstWord(segment));
}

function firstWord(segment: string): string {
  return (segment.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/).find((s) => s !== '') ?? '').toLowerCase();
}

function stripHtml(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Statements that a repeat adds an effect, in the spec's own prose. */
const REPEAT_ADDS =
  /\b(not|non-?)[ -]?idempotent\b|\b(each|every) (call|request|invocation|time)\b[^.]{0,60}\b(creates?|sends?|charges?|triggers?|adds?|appends?|generates?|increments?|queues?)\b|\b(appends?|increments?)\b[^.]{0,40}\b(to|by)\b/i;

/** The action the spec's prose opens with ("Cancels a subscription") or a statement that repeats add effects. */
function proseContradiction(op: HttpOperation): string | undefined {
  for (const [field, raw] of [
    ['summary', op.summary],
    ['description', op.description],
  ] as const) {
    if (raw === undefined || raw.trim() === '') continue;
    const text = stripHtml(raw);
    const lead = text.match(/^[A-Za-z]+/)?.[0];
    if (lead !== undefined && PROSE_ACTIONS.has(verbStem(lead, PROSE_ACTIONS)))
      return `its ${field} opens with the action "${lead}" (${quote(text)})`;
    const repeat = text.match(REPEAT_ADDS);
    if (repeat) return `its ${field} says "${repeat[0]}" (${quote(text)})`;
  }
  return undefined;
}

function quote(text: string): string {
  const sentence = text.split(/(?<=\.)\s/)[0] ?? text;
  return sentence.length > 100 ? `${sentence.slice(0, 97)}…` : sentence;
}

const PARAM = /^\{[^}]+\}$/;

/**
 * The rule for one operation: `idempotent` (with the rule and the evidence as reasons), `contradicted`
 * (the method qualifies but the spec says otherwise) or `none`.
 */
export function methodSemantics(op: Operation): MethodSemantics {
  if (op.kind !== 'http' || (op.method !== 'put' && op.method !== 'delete')) return { kind: 'none' };
  const segments = op.path.split('/').filter((s) => s !== '');
  const last = segments.at(-1) ?? '';
  const params = segments.filter((s) => PARAM.test(s) || /\{[^}]+\}/.test(s));
  const M = op.method.toUpperCase();
  // `DELETE /items`, `PUT /items`: no id the client chose in the URI (a collection, or the server picks the id).
  if (params.length === 0) return { kind: 'none' };
  // Google-style custom methods (`/v1/{name}:cancel`) are actions whatever the verb.
  const custom = last.match(/:([A-Za-z][\w-]*)$/);
  if (custom) return { kind: 'contradicted', evidence: `the path ends in the custom method ":${custom[1]}"` };
  if (!PARAM.test(last)) {
    const word = firstWord(last);
    // Exact words only: `suspended`, `archives`, `updates` name a state or a collection, not an action.
    if (PATH_ACTIONS.has(word))
      return { kind: 'contradicted', evidence: `the path's last segment "${last}" names an action (${word})` };
  }
  const prose = proseContradiction(op);
  if (prose !== undefined) return { kind: 'contradicted', evidence: prose };
  const target = PARAM.test(last)
    ? `the resource ${last} the client names in the path`
    : `the sub-resource "${last}" of ${params.at(-1)}`;
  const effect =
    op.method === 'delete'
      ? 'a repeat finds it gone, so a retry after an ambiguous outcome is safe and a 404/410 on that retry means done'
      : 'a repeat writes the same state again, so a retry after an ambiguous outcome is safe';
  return {
    kind: 'idempotent',
    reasons: [
      reason(
        'method_semantics',
        `${M} ${op.path} addresses ${target}; by method semantics (RFC 9110 §9.2.2) ${effect}; no action path or contradicting description, no store needed`,
        op.source.pointer,
      ),
    ],
  };
}

/**
 * A PUT/DELETE that would be `method-idempotent` but for what its spec says keeps the tree's decision; the
 * finding quotes the evidence and the override that forces the mechanism when the reviewer disagrees.
 * Silent when an override decided the mechanism (the user has spoken).
 */
export function reportContradictedMethod(entry: PlanEntry, ctx: ClassifyContext): void {
  const op = entry.operation;
  if (entry.effect !== 'write' || entry.mechanism === 'method-idempotent') return;
  if (findOverride(ctx, op)?.override.mechanism !== undefined) return;
  const m = methodSemantics(op);
  if (m.kind !== 'contradicted') return;
  addFinding(
    ctx,
    'method_semantics_contradicted',
    `${op.key} is not treated as safe to repeat by method semantics: ${m.evidence}; kept ${entry.mechanism}`,
    op.source.pointer,
    {
      hint: `if a repeat is in fact harmless, set overrides[${JSON.stringify(op.key)}] = { "mechanism": "method-idempotent" }`,
    },
  );
}
