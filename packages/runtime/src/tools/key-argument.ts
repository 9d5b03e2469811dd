/**
 * The idempotency-key argument, in one place: its name, its limits, its JSON Schema, the one description every
 * key property carries (MCP, OpenAI and Anthropic tool files, the compact `tools/list`, code mode's run key),
 * the longer rule a server states once (`instructions` of the MCP initialize result), and which argument a
 * listing hides or a door strips. The generator (emit/tools), the listings (mcp/compact.ts, mcp/listing.ts),
 * the MCP doors (mcp/register.ts, mcp/with-idempotency.ts) and code mode (serve/code) all shape the key from
 * here; its limits come from core/key-limits.ts, which `validateKey` (core/keys.ts) enforces.
 */
import { KEY_CHARS, KEY_MAX_LENGTH, KEY_MIN_LENGTH } from '../core/key-limits.js';
import type { ToolBinding } from './types.js';

type Obj = Record<string, unknown>;

/** The key argument idemgen adds to a write tool (a tool's or API's own key argument keeps its name). */
export const KEY_ARGUMENT = 'idempotency_key';
/** The key's limits live in core (core/key-limits.ts), where `validateKey` enforces them. */
export { KEY_CHARS, KEY_MAX_LENGTH, KEY_MIN_LENGTH };

/** Who deduplicates a key: the downstream API (its own key), the tool itself (its own key argument), or this server. */
export type KeyOwner = 'api' | 'tool' | 'server';

/** `86400` → `24 hours`, `300` → `5 minutes`; whole days only from 48 h on. */
export function formatWindow(seconds: number): string {
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds >= 172_800 && seconds % 86_400 === 0) return unit(seconds / 86_400, 'day');
  if (seconds >= 3600 && seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds >= 60 && seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

const OWNER: Record<KeyOwner, string> = { api: 'The API', tool: 'The tool', server: 'This server' };

/** The one key description: the rule in one sentence, then who deduplicates and for how long (≤ 140 characters). */
export function keyDescription(owner: KeyOwner, ttlSeconds?: number): string {
  const window = ttlSeconds !== undefined ? ` for ${formatWindow(ttlSeconds)}` : '';
  return `One new key per intended action; reuse the same key on every retry, also after a timeout. ${OWNER[owner]} deduplicates it${window}.`;
}

/** A binding's key owner as the runtime sees it: the API for a native key it carries, else this server. */
export function keyOwnerOf(binding: Pick<ToolBinding, 'mechanism' | 'carrier'>): KeyOwner {
  return binding.mechanism === 'native-key' && binding.carrier !== undefined ? 'api' : 'server';
}

/** A carrier's limit when smaller than ours (Stripe: 255), never below the shortest key. */
export function keyMaxLength(carrierMax?: number): number {
  if (carrierMax === undefined) return KEY_MAX_LENGTH;
  return Math.max(KEY_MIN_LENGTH, Math.min(KEY_MAX_LENGTH, carrierMax));
}

/** The key property's JSON Schema (`pattern` states the characters; the lengths are their own keywords). */
export function keyArgumentSchema(description: string, maxLength: number = KEY_MAX_LENGTH): Obj {
  return { type: 'string', description, maxLength, minLength: KEY_MIN_LENGTH, pattern: `^${KEY_CHARS}+$` };
}

/** The key's contract, once per server (`instructions` in the initialize result). */
export const KEY_INSTRUCTIONS =
  `Every tool with side effects takes a required idempotency key argument (\`${KEY_ARGUMENT}\`, or the API's own key argument where it has one). ` +
  'Create one new key per intended action (for example a UUID made once, before the first call) and send the same key on every retry of that action. ' +
  'After a timeout, a dropped connection or any unknown outcome, retry with the SAME key: a call that already ran is answered from its record instead of running twice. ' +
  'Never use a new key for an action you are retrying. Each key property says who deduplicates it and for how long.';

/** Code mode's run key: the one key the model sends, for a whole script. */
export const CODE_RUN_KEY_DESCRIPTION =
  'One key per intended run (for example a UUID); reuse it when retrying that run.';

/**
 * Code mode's key rule, stated once in the MCP initialize `instructions` (the listed tools carry it too): the
 * model keys a run, never a call, and a retried run must keep its key.
 */
export const CODE_KEY_INSTRUCTIONS =
  `execute takes a required ${KEY_ARGUMENT} for the whole run. Create one new key per script you intend to run (for example a UUID made once) and send the SAME key, with the same code, when you retry it after an error, a timeout or any unknown outcome: writes that completed are replayed from their record, not repeated. ` +
  'Never use a new key for a run you are retrying; a different script needs a new key. The calls inside the script (api.<name>(args)) take no key.';

/**
 * The arguments a listing hides for a binding: the server's own (`serverArguments`), and the key argument when
 * the model must not send one (`keySource: 'intent'`: the host's intent keys the call).
 */
export function hiddenArguments(
  serverArguments: Readonly<Record<string, unknown>> | undefined,
  keySource: 'model' | 'intent' | undefined,
): (b: Pick<ToolBinding, 'keyProperty'>) => ReadonlySet<string> {
  const fixed = new Set(Object.keys(serverArguments ?? {}));
  return (b) => (keySource === 'intent' && b.keyProperty !== undefined ? new Set([...fixed, b.keyProperty]) : fixed);
}

/** The arguments without the key argument (a key the host or the server chose wins over the model's). */
export function withoutKeyArgument(args: Obj, name: string | undefined): Obj {
  if (name === undefined || !Object.hasOwn(args, name)) return args;
  const { [name]: _key, ...rest } = args;
  return rest;
}
