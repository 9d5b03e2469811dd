/**
 * Asking the person behind the call: an action with no undo runs only after an explicit confirmation, and an
 * unknown outcome nothing else can settle is put to the person who asked for it. The runtime asks only when
 * the call context carries a `Human` (an MCP client that declared elicitation); without one every answer is
 * what it always was. A confirmation comes before the key is claimed, so a "no" leaves no row behind; an
 * answer about an unknown outcome is recorded exactly as `idemgen reconcile --resolve` records an operator's.
 */
import { IdempotencyOutcomeUnknownError } from '../core/errors.js';
import { resolveUnknown, type ResolveAs } from '../core/reconcile.js';
import { hasCapability, type DedupStore } from '../store/types.js';
import type { Human, ToolBinding, ToolCallError, ToolOutcome } from './types.js';

/** Which writes need a yes first (`serve --confirm`): none but the marked, every irreversible one, or every write. */
export const CONFIRM_POLICIES = ['off', 'irreversible', 'writes'] as const;
export type ConfirmPolicy = (typeof CONFIRM_POLICIES)[number];

/**
 * Irreversible as classify decides it: no native key, not our store, no inverse (`fail-closed`, the
 * `irreversible` class), or a write classify refused (`none`, which the tool runtime runs fail-closed).
 */
function isIrreversible(b: ToolBinding): boolean {
  return b.effect === 'write' && (b.mechanism === 'fail-closed' || b.mechanism === 'none');
}

/** An operation marked physical or financial always asks; the policy adds the rest. */
export function needsConfirmation(b: ToolBinding, policy: ConfirmPolicy = 'off'): boolean {
  if (b.effect !== 'write') return false;
  if (b.impact !== undefined) return true;
  switch (policy) {
    case 'off':
      return false;
    case 'irreversible':
      return isIrreversible(b);
    case 'writes':
      return true;
  }
}

const label = (b: ToolBinding): string => `${b.title ?? b.names.mcp} (${b.method} ${b.path})`;

/** The arguments as the person reads them: JSON, cut at 2,000 characters. */
function shown(args: Record<string, unknown>): string {
  const text = JSON.stringify(args, null, 2) ?? '{}';
  return text.length <= 2000 ? text : `${text.slice(0, 2000)}…`;
}

export function confirmMessage(b: ToolBinding, args: Record<string, unknown>): string {
  const what = b.impact !== undefined ? `a ${b.impact} action` : 'an action';
  return `${label(b)} is ${what} that cannot be undone. Run it now with these arguments?\n${shown(args)}`;
}

function happenedMessage(b: ToolBinding, args: Record<string, unknown>): string {
  return (
    `An earlier attempt at ${label(b)} got no answer, so nobody knows whether it took effect. Did it happen? ` +
    `Answer "did not happen" only if you checked: the call then runs once more.\n${shown(args)}`
  );
}

/** The refusal the model reads after a "no", a decline, a cancel or no answer: nothing ran, no key was used. */
export function declined(b: ToolBinding): ToolCallError {
  return {
    code: 'confirmation_declined',
    executed: 'no',
    retry_same_key: true,
    message: `Not executed: ${b.names.mcp} cannot be undone and needs the user's confirmation, which was not given. Nothing was sent and the key was not used; do not retry unless the user asks for it.`,
  };
}

/** Does a row hold this key (a replay, an attempt in flight, an unknown outcome)? Then there is nothing to confirm. */
export async function keyInUse(
  store: DedupStore | undefined,
  b: ToolBinding,
  id: { scope: string; key: string },
  sagaTable: string | undefined,
  now: number,
): Promise<boolean> {
  if (store === undefined) return false;
  const row =
    b.mechanism === 'saga'
      ? hasCapability(store, 'saga')
        ? await store.saga(sagaTable).get(id)
        : undefined
      : await store.get(id);
  if (row === undefined) return false;
  // A finished row past its window counts as absent: the next claim replaces it and runs the call.
  return row.status === 'pending' || row.expiresAt > now;
}

/** An unknown outcome the person may settle: a dedup-table row whose attempt ended without an answer. */
export function askable(err: unknown, b: ToolBinding, retrySafe: boolean): err is IdempotencyOutcomeUnknownError {
  return (
    err instanceof IdempotencyOutcomeUnknownError && !retrySafe && b.mechanism !== 'saga' && err.result === undefined
  );
}

export interface Settled {
  /** `rerun`: the key was released on "did not happen"; the caller runs the call once more. */
  next: 'rerun' | 'done' | 'unknown';
  /** Whether the person was asked (an unknown outcome they could not settle says so). */
  asked: boolean;
  outcome?: ToolOutcome;
  at?: string;
}

/**
 * Put the unknown outcome to the person and record the answer as `reconcile --resolve` would: "happened"
 * completes the row (no response body is known, so none is stored), "did not happen" frees the key, anything
 * else leaves it as it was. Only a pending row whose lease has run out is asked about (nobody else holds it).
 */
export async function settleByHuman(
  human: Human,
  store: DedupStore,
  err: IdempotencyOutcomeUnknownError,
  b: ToolBinding,
  args: Record<string, unknown>,
  now: () => number,
  signal?: AbortSignal,
): Promise<Settled> {
  const id = { scope: err.scope, key: err.key };
  const row = await store.get(id).catch(() => undefined);
  if (row === undefined || row.status !== 'pending' || row.leaseExpiresAt > now())
    return { next: 'unknown', asked: false };
  const answer = await human.happened(happenedMessage(b, args), signal);
  if (answer === 'unknown') return { next: 'unknown', asked: true };
  const as: ResolveAs = answer === 'happened' ? 'completed' : 'not-executed';
  const said = answer === 'happened' ? 'happened' : 'did not happen';
  const resolved = await resolveUnknown(store, {
    ...id,
    as,
    result: null,
    by: human.who,
    reason: `asked through the MCP client whether ${b.names.mcp} (${b.operation}) took effect, the user answered "${said}"`,
    now: now(),
  }).catch(() => undefined);
  if (resolved === undefined || !resolved.resolved) return { next: 'unknown', asked: true };
  const at = resolved.record.at;
  if (as === 'not-executed') return { next: 'rerun', asked: true, at };
  return {
    next: 'done',
    asked: true,
    at,
    outcome: {
      ok: true,
      result: null,
      was_replay: true,
      original_called_at: new Date(row.createdAt).toISOString(),
      resolved_by_user: { answer: 'happened', by: human.who, at },
      note: `The user confirmed that this call took effect, but its response was lost: no result body is known (result is null). Do not call it again; use a read tool to look at what it made.`,
    },
  };
}

/** The model's answer when the person could not settle it: today's unknown outcome, saying they were asked. */
export function stillUnknown(error: ToolCallError): ToolCallError {
  return {
    ...error,
    message: `${error.message} The user was asked whether it happened and did not say; it stays unknown until reconciled.`,
  };
}
