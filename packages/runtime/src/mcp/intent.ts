/**
 * The host's intent over MCP (docs/concepts.md#repeated-intent). A host (the chat app driving the model) knows which user turn a
 * tool call belongs to; the model may not keep a key across its own retries. So a `tools/call` request may
 * carry `_meta["io.idemgen/intent"]` (a flat object such as `{thread, turn}`) or `_meta["io.idemgen/key"]`
 * (a string the host keeps per turn), and a write is then keyed by that intent, the tool and its canonical
 * arguments: the same write retried in the same turn gets the same key, two different writes in one turn
 * (another tool, other arguments) get different keys.
 *
 * Precedence: when the host names an intent, it wins over the model's `idempotency_key`. The host is code
 * the operator trusts and its turn id is stable across the model's retries; the model's key is text the
 * model wrote, and a model that mints a fresh key per attempt is exactly the failure this guards against.
 */
import { canonicalJson } from '../core/canonical-json.js';
import type { KeyScope } from '../core/keys.js';
import { KEY_MAX_LENGTH } from '../core/key-limits.js';

export const INTENT_META = 'io.idemgen/intent';
export const KEY_META = 'io.idemgen/key';

/**
 * `model` (default): a write is keyed by the host's intent when the request carries one, else by the
 * model's `idempotency_key`. `intent`: the key argument is hidden from listed schemas and a write without
 * the host's intent is refused before anything runs.
 */
export type McpKeySource = 'model' | 'intent';

export const KEY_SOURCES: readonly McpKeySource[] = ['model', 'intent'];

const MAX_ENTRIES = 16;
const MAX_NAME = 64;
const MAX_VALUE = 256;
/** The canonical JSON of the whole intent object. */
const MAX_BYTES = 1024;
const PRINTABLE = /^[\x20-\x7e]+$/;

export type HostIntent =
  /** `intent`: what the tool runtime keys the write by (`ToolCallContext.intent`); absent: the host named none. */
  { ok: true; intent?: KeyScope } | { ok: false; message: string };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

function checkIntent(value: unknown): string | undefined {
  const where = `_meta["${INTENT_META}"]`;
  const shape = `an object of string or number values, such as {"thread": "t-81", "turn": 4}`;
  if (!isPlainObject(value)) return `${where} must be ${shape}; got ${kindOf(value)}`;
  const entries = Object.entries(value);
  if (entries.length === 0) return `${where} is empty; name the intent, for example {"thread": "t-81", "turn": 4}`;
  if (entries.length > MAX_ENTRIES) return `${where} has ${entries.length} entries; at most ${MAX_ENTRIES} are allowed`;
  for (const [name, v] of entries) {
    if (name.length === 0 || name.length > MAX_NAME)
      return `${where}: entry names must be 1–${MAX_NAME} characters long`;
    if (typeof v === 'number' && !Number.isFinite(v))
      return `${where}.${JSON.stringify(name)}: a number must be finite`;
    if (typeof v === 'string' && (v.length === 0 || v.length > MAX_VALUE))
      return `${where}.${JSON.stringify(name)}: a string must be 1–${MAX_VALUE} characters long`;
    if (typeof v !== 'string' && typeof v !== 'number')
      return `${where}.${JSON.stringify(name)} must be a string or a number; got ${kindOf(v)} (${shape})`;
  }
  const bytes = Buffer.byteLength(canonicalJson(value));
  if (bytes > MAX_BYTES) return `${where} is ${bytes} bytes as canonical JSON; at most ${MAX_BYTES} are allowed`;
  return undefined;
}

function checkKey(value: unknown): string | undefined {
  const where = `_meta["${KEY_META}"]`;
  if (typeof value !== 'string') return `${where} must be a string; got ${kindOf(value)}`;
  if (value.length === 0 || value.length > KEY_MAX_LENGTH || !PRINTABLE.test(value))
    return `${where} must be 1–${KEY_MAX_LENGTH} printable ASCII characters`;
  return undefined;
}

/**
 * The host's intent from a `tools/call` request's `_meta`, checked. `tool` is the MCP tool name: with the
 * operation and the canonical arguments (which the tool runtime adds) it keeps two writes of one turn apart.
 * Both entries may be given; each then takes part in the key.
 */
export function hostIntent(meta: unknown, tool: string): HostIntent {
  if (!isPlainObject(meta)) return { ok: true };
  const intent = meta[INTENT_META];
  const key = meta[KEY_META];
  if (intent === undefined && key === undefined) return { ok: true };
  const scope: KeyScope = { tool };
  if (intent !== undefined) {
    const problem = checkIntent(intent);
    if (problem !== undefined) return { ok: false, message: problem };
    // Canonical: the same intent in any key order (or any JSON spacing) is the same key.
    scope.intent = canonicalJson(intent);
  }
  if (key !== undefined) {
    const problem = checkKey(key);
    if (problem !== undefined) return { ok: false, message: problem };
    scope.key = key as string;
  }
  return { ok: true, intent: scope };
}

/** The message for a write that arrives without the host's intent when the key source is `intent`. */
export const INTENT_REQUIRED = `This server keys writes by the host's intent, and this request carries none: send _meta["${INTENT_META}"] (an object such as {"thread": "t-81", "turn": 4}) or _meta["${KEY_META}"] on tools/call. Nothing was executed.`;
