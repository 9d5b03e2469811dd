/**
 * Key derivation (docs/concepts.md#keys-and-scopes). Three strategies and no others: a caller key persisted in the
 * caller's state *before* the call, an intent hash of (scope, operation, args), or a content
 * hash. Never a key from the clock or a fresh random value inside the call (docs/concepts.md#store-rules).
 */
import { randomUUID } from 'node:crypto';
import { canonicalJson, hashArgs, sha256Hex } from './canonical-json.js';
import { IdempotencyKeyInvalidError } from './errors.js';
import { KEY_MAX_LENGTH, KEY_MIN_LENGTH } from './key-limits.js';

export type KeyScope = Record<string, string | number>;

export interface IntentKeyInput {
  /** Thread/turn/run/node ids, tenant, principal — whatever names one intent (docs/concepts.md#repeated-intent/3). */
  scope: KeyScope;
  operation: string;
  args: unknown;
}

/** docs/concepts.md#keys-and-scopes "composite: hash(thread_id, node_id, attempt_args)"; 64 hex chars. */
export function intentKey(input: IntentKeyInput): string {
  return sha256Hex(canonicalJson({ v: 1, scope: input.scope, operation: input.operation, args: hashArgs(input.args) }));
}

/** content-address, docs/concepts.md#mechanisms: key = sha256(canonical content). Bytes and strings are hashed as they are. */
export function contentKey(content: unknown): string {
  if (typeof content === 'string' || content instanceof Uint8Array) return sha256Hex(content);
  return hashArgs(content);
}

/** A durable slot in the caller's state (LangGraph state, a checkpoint row, a session record). */
export interface StateSlot {
  get(name: string): string | undefined | Promise<string | undefined>;
  set(name: string, value: string): void | Promise<void>;
}

/**
 * `POST /v1/charges` → `post_v1_charges`, `tool:send_email` → `send_email`: the slot naming
 * convention `{tool_name}_idempotency_key` (docs/concepts.md#names) needs an identifier-safe tool name.
 */
export function keySlotName(operation: string): string {
  const base = operation
    .replace(/^tool:/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `${base || 'operation'}_idempotency_key`;
}

/**
 * docs/concepts.md#keys-and-scopes default: reuse the key already in state, else create one and persist it BEFORE the
 * side effect, so a resume or retry reads the same key back.
 */
export async function callerKey(
  stateSlot: StateSlot,
  operation: string,
  create: () => string = randomUUID,
): Promise<string> {
  const name = keySlotName(operation);
  const existing = await stateSlot.get(name);
  if (typeof existing === 'string' && existing.length > 0) return existing;
  const key = create();
  await stateSlot.set(name, key);
  return key;
}

export interface KeyLimits {
  maxLength?: number;
  minLength?: number;
  /** Named in every error (and set as the error's `operation`). */
  operation?: string;
  /** Which of the limits the API itself declares; the others are idemgen's defaults. The error says whose. */
  apiLimits?: readonly ('maxLength' | 'minLength')[];
}

function whose(limits: KeyLimits, which: 'maxLength' | 'minLength'): string {
  if (limits.apiLimits?.includes(which)) return which === 'maxLength' ? "the API's limit" : "the API's minimum";
  return which === 'maxLength'
    ? "idemgen's default limit: the width of the dedup table's key column"
    : "idemgen's minimum, not the API's: enough entropy that two intents never share a key";
}

/**
 * Printable ASCII only (0x20–0x7E) so the key survives an HTTP header (RFC 9110 §5.5) and a
 * VARCHAR with a binary collation; ≥ 16 chars so it carries enough entropy to be unique;
 * ≤ 255 is Stripe's limit and the width of the `idempotency_key` column.
 */
const PRINTABLE = /^[\x20-\x7e]+$/;

export function validateKey(key: unknown, limits: KeyLimits = {}): string {
  const { maxLength = KEY_MAX_LENGTH, minLength = KEY_MIN_LENGTH, operation = '' } = limits;
  // The common valid key allocates nothing: the checks come first, the error context only on failure.
  if (
    typeof key === 'string' &&
    key.length >= minLength &&
    key.length <= maxLength &&
    PRINTABLE.test(key) &&
    key.charCodeAt(0) !== 32 &&
    key.charCodeAt(key.length - 1) !== 32
  ) {
    return key;
  }
  const ctx = { key: typeof key === 'string' ? key : String(key), operation, scope: '' };
  const at = operation === '' ? '' : `${operation}: `;
  if (typeof key !== 'string') throw new IdempotencyKeyInvalidError(`${at}idempotency key must be a string`, ctx);
  if (key.length < minLength) {
    throw new IdempotencyKeyInvalidError(
      `${at}idempotency key is ${key.length} chars; at least ${minLength} required (${whose(limits, 'minLength')})`,
      ctx,
    );
  }
  if (key.length > maxLength) {
    throw new IdempotencyKeyInvalidError(
      `${at}idempotency key is ${key.length} chars; at most ${maxLength} allowed (${whose(limits, 'maxLength')})`,
      ctx,
    );
  }
  if (!PRINTABLE.test(key)) {
    throw new IdempotencyKeyInvalidError(
      `${at}idempotency key must be printable ASCII without control characters (it travels in an HTTP header)`,
      ctx,
    );
  }
  if (key.trim() !== key) throw new IdempotencyKeyInvalidError(`${at}idempotency key has leading/trailing spaces`, ctx);
  return key;
}

/**
 * The `scope` column: tenant/principal namespace so one tenant never replays another's result.
 * Records are canonicalized; anything over the 200-char column is hashed.
 */
export function scopeString(scope: string | KeyScope | undefined): string {
  if (scope === undefined) return '';
  const text = typeof scope === 'string' ? scope : canonicalJson(scope);
  return text.length <= 200 ? text : `sha256:${sha256Hex(text)}`;
}
