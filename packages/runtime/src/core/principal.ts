/**
 * The whole principal as a dedup scope (docs/concepts.md#keys-and-scopes): the authenticated subject *and*
 * whatever chooses whose upstream account a call acts on — a caller's own API credential. Two callers who
 * send the same key with different API credentials act on different accounts, so they must never share a
 * row (one would be answered with the other account's result, and its own write would never be sent).
 *
 * The credential enters the scope as HMAC-SHA256 under a server secret: the stored scope names no secret,
 * and unlike a plain hash it cannot be tested offline against guessed credentials (a short API password).
 */
import { createHmac } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { scopeString, type KeyScope } from './keys.js';

/** Per-caller credentials by security scheme (the tool runtime's `ToolAuth` shape). */
export type CallerCredentials = Readonly<Record<string, string | { username: string; password: string } | undefined>>;

/** Shorter secrets are refused: the HMAC is only as strong as its key (RFC 2104 §3: at least the output length / 2). */
const MIN_SCOPE_SECRET_BYTES = 32;

/** A scope secret, checked once where it is configured; throws a TypeError naming the problem. */
export function checkScopeSecret(secret: string | Uint8Array, what = 'scopeSecret'): Uint8Array {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  if (bytes.byteLength < MIN_SCOPE_SECRET_BYTES)
    throw new TypeError(
      `${what} has ${bytes.byteLength} bytes; at least ${MIN_SCOPE_SECRET_BYTES} are required (for example 32 random bytes as hex)`,
    );
  return bytes;
}

/** The credentials that are set, sorted by scheme; none → undefined (the subject alone is the principal). */
function present(credentials: CallerCredentials | undefined): Record<string, unknown> | undefined {
  if (credentials === undefined) return undefined;
  const set = Object.entries(credentials).filter(([, v]) => v !== undefined && v !== '');
  return set.length === 0 ? undefined : Object.fromEntries(set);
}

/** `hmac-sha256:<64 hex>` of the canonical credentials: stable for one credential, unlinkable without the secret. */
function credentialTag(credentials: CallerCredentials, secret: Uint8Array): string {
  const mac = createHmac('sha256', secret)
    .update(canonicalJson(present(credentials) ?? {}))
    .digest('hex');
  return `hmac-sha256:${mac}`;
}

/** Per-caller credentials given but no secret to key them with: the call must not run unscoped. */
const SECRET_MISSING = 'per-caller API credentials need a scope secret (scopeSecret) to be part of the dedup scope';

/**
 * `base` (the subject's scope) widened by the caller's credentials. Without credentials the scope is `base`
 * unchanged, so rows written before a server took per-caller credentials keep their scope.
 */
export function principalScope(
  base: string | KeyScope | undefined,
  credentials: CallerCredentials | undefined,
  secret: Uint8Array | undefined,
): string | KeyScope | undefined {
  const creds = present(credentials);
  if (creds === undefined) return base;
  if (secret === undefined) throw new ScopeUnknownError(SECRET_MISSING);
  return { principal: scopeString(base), upstream: credentialTag(creds as CallerCredentials, secret) };
}

/**
 * The dedup scope cannot be known, so the write must not run (`idempotency_scope_unknown`, nothing executed):
 * authenticated, but the subject is not where the default looks (guessing would mix users' keys), or per-caller
 * credentials were given with no secret to key them with (the call must not run unscoped). One class for both.
 */
export class ScopeUnknownError extends Error {
  readonly code = 'idempotency_scope_unknown';
  readonly executed = 'no';
  readonly retrySameKey = true;
  constructor(message = 'the request is authenticated but authInfo.extra.sub names no subject') {
    super(message);
    this.name = 'ScopeUnknownError';
  }
}
