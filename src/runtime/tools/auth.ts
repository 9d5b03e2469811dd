/**
 * Credentials for the spec's security schemes, filled by the server from its configuration — never
 * asked of the model (the tool schemas leave them out, tools/http-input.ts). Keyed by the scheme's name
 * in the spec, or by its kind (`bearer`, `basic`, `apiKey`) for "the one token this API takes".
 */
import type { HttpRequest } from '../http/caller.js';
import type { BindingSecurity, ToolBinding } from './types.js';

export type ToolCredential = string | { username: string; password: string };
export type ToolAuth = Readonly<Record<string, ToolCredential | undefined>>;
/** A function is asked on every call (a token that rotates). */
export type ToolAuthOption = ToolAuth | (() => ToolAuth | Promise<ToolAuth>);

function credentialFor(auth: ToolAuth, s: BindingSecurity): ToolCredential | undefined {
  return auth[s.scheme] ?? auth[s.type];
}

function apply(req: Omit<HttpRequest, 'mechanism'>, s: BindingSecurity, cred: ToolCredential): void {
  const headers = { ...req.headers };
  req.headers = headers;
  if (s.type === 'basic') {
    const pair = typeof cred === 'string' ? cred : `${cred.username}:${cred.password}`;
    headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
    return;
  }
  const value = typeof cred === 'string' ? cred : cred.password;
  if (s.type === 'bearer') headers.authorization = `Bearer ${value}`;
  else if (s.in === 'header') headers[s.name!] = value;
  else if (s.in === 'query') req.query = { ...req.query, [s.name!]: value };
  else headers.cookie = [headers.cookie, `${s.name}=${encodeURIComponent(value)}`].filter(Boolean).join('; ');
}

/**
 * The first alternative whose every scheme has a credential is applied; with none, the request goes
 * without, and the API's 401 reaches the model as an `api_error` naming the status.
 */
export async function applyAuth(
  req: Omit<HttpRequest, 'mechanism'>,
  binding: ToolBinding,
  option: ToolAuthOption | undefined,
): Promise<void> {
  if (option === undefined || binding.security === undefined) return;
  const auth = typeof option === 'function' ? await option() : option;
  for (const alternative of binding.security) {
    const creds = alternative.map((s) => credentialFor(auth, s));
    if (creds.every((c): c is ToolCredential => c !== undefined)) {
      alternative.forEach((s, i) => {
        apply(req, s, creds[i]!);
      });
      return;
    }
  }
}
