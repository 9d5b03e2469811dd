/**
 * Who is calling, the same way at every MCP door — the registered tools (register.ts), code mode
 * (serve/code) and `withIdempotency`: the dedup scope (the authenticated subject by default, never the OAuth
 * client), the caller's own API credentials, and the arguments the server fills in itself (`serverArguments`),
 * which always override what the model sends. A scope that cannot be resolved is refused with the tool
 * runtime's words (`toToolError`), before anything runs.
 */
import type { KeyScope } from '../core/keys.js';
import { type CallerCredentials, ScopeUnknownError } from '../core/principal.js';
import { toToolError } from '../tools/outcome.js';
import type { ToolBinding, ToolCallError } from '../tools/types.js';

/**
 * The dedup namespace must be the *principal* (the user), not the OAuth client: one client app serves
 * many users, and keying on it would let one user's retry replay another user's result. The subject
 * is taken from `authInfo.extra.sub` (the token's `sub` claim, as verifiers conventionally put it);
 * with no `authInfo` at all (stdio, a local server) there is one principal and the scope is undefined.
 */
function defaultScope(extra: unknown): string | undefined {
  const authInfo = (extra as { authInfo?: { extra?: Record<string, unknown> } } | undefined)?.authInfo;
  if (authInfo === undefined || authInfo === null) return undefined;
  const sub = authInfo.extra?.sub;
  if (typeof sub === 'string' && sub !== '') return `sub:${sub}`;
  throw new ScopeUnknownError();
}

/** How a door learns its caller from the request's `extra` (each option defaults as documented at the door). */
export interface CallerOptions<E> {
  /** Dedup namespace per request. Default: `defaultScope`. */
  scope?: ((extra: E) => string | KeyScope | undefined) | undefined;
  /** The caller's own API credentials per request (part of the scope as a keyed hash). */
  credentials?: ((extra: E) => CallerCredentials | undefined) | undefined;
}

export type Caller =
  | { ok: true; scope: string | KeyScope | undefined; credentials?: CallerCredentials }
  | { ok: false; error: ToolCallError };

/** The caller of one request, or the refusal the model reads (`idempotency_scope_unknown`, nothing ran). */
export function resolveCaller<E>(extra: E, options: CallerOptions<E> = {}): Caller {
  let scope: string | KeyScope | undefined;
  try {
    scope = (options.scope ?? defaultScope)(extra);
  } catch (err) {
    if (err instanceof ScopeUnknownError) return { ok: false, error: toToolError(err, 'write', false) };
    throw err;
  }
  const credentials = options.credentials?.(extra);
  return credentials === undefined ? { ok: true, scope } : { ok: true, scope, credentials };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The model's arguments with the server's own values for the binding's properties they name: a server
 * argument the binding does not declare is not sent (it belongs to another operation).
 */
export function withServerArguments(
  args: Readonly<Record<string, unknown>>,
  binding: Pick<ToolBinding, 'inputSchema'>,
  serverArguments: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  if (serverArguments === undefined) return { ...args };
  const own = Object.keys(isObj(binding.inputSchema.properties) ? binding.inputSchema.properties : {});
  const injected = Object.fromEntries(
    own.filter((p) => Object.hasOwn(serverArguments, p)).map((p) => [p, serverArguments[p]]),
  );
  return { ...args, ...injected };
}
