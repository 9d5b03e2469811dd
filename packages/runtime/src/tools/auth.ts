/**
 * Credentials for the spec's security schemes, filled by the server from its configuration — never
 * asked of the model (the tool schemas leave them out, tools/http-input.ts). Keyed by the scheme's name
 * in the spec, or by its kind (`bearer`, `basic`, `apiKey`) for "the one token this API takes".
 */
import type { BindingSecurity, ToolBinding } from './types.js';

export type ToolCredential = string | { username: string; password: string };
export type ToolAuth = Readonly<Record<string, ToolCredential | undefined>>;
/** A function is asked on every call (a token that rotates). */
export type ToolAuthOption = ToolAuth | (() => ToolAuth | Promise<ToolAuth>);

/** What one call sends for its security schemes: headers (a cookie credential as a `cookie` header) and query values. */
export interface Credentials {
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

function credentialFor(auth: ToolAuth, s: BindingSecurity): ToolCredential | undefined {
  return auth[s.scheme] ?? auth[s.type];
}

function apply(out: Credentials, s: BindingSecurity, cred: ToolCredential): void {
  const header = (name: string, value: string) => {
    out.headers = { ...out.headers, [name]: value };
  };
  if (s.type === 'basic') {
    const pair = typeof cred === 'string' ? cred : `${cred.username}:${cred.password}`;
    header('authorization', `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`);
    return;
  }
  const value = typeof cred === 'string' ? cred : cred.password;
  if (s.type === 'bearer') header('authorization', `Bearer ${value}`);
  else if (s.in === 'header') header(s.name!, value);
  else if (s.in === 'query') out.query = { ...out.query, [s.name!]: value };
  else header('cookie', [out.headers?.cookie, `${s.name}=${encodeURIComponent(value)}`].filter(Boolean).join('; '));
}

/**
 * The credentials of the first alternative whose every scheme has one; with none, the request goes
 * without, and the API's 401 reaches the model as an `api_error` naming the status. `caller`: the call's own
 * credentials (`ToolCallContext.credentials`), over the server's. Asked once per call:
 * the engine sends them on the call (client/operation.ts `checkedRequest`).
 */
export async function credentialsFor(
  binding: ToolBinding,
  option: ToolAuthOption | undefined,
  caller?: ToolAuth,
): Promise<Credentials | undefined> {
  if ((option === undefined && caller === undefined) || binding.security === undefined) return undefined;
  const shared = typeof option === 'function' ? await option() : (option ?? {});
  // The caller's own credential wins over the server's for the same scheme (it chooses the account).
  const auth = caller === undefined ? shared : { ...shared, ...caller };
  for (const alternative of binding.security) {
    const creds = alternative.map((s) => credentialFor(auth, s));
    if (creds.every((c): c is ToolCredential => c !== undefined)) {
      const out: Credentials = {};
      alternative.forEach((s, i) => {
        apply(out, s, creds[i]!);
      });
      return out;
    }
  }
  return undefined;
}
