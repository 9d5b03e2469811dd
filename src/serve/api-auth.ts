/**
 * The API's credentials for `idemgen serve`: one environment variable per security scheme of the spec,
 * `IDEMGEN_AUTH_<SCHEME>` (the scheme's name upper-cased, non-alphanumerics as `_`; HTTP basic as
 * `user:password`). They are the server's, never the model's: the tool runtime adds them to each request
 * (runtime/tools/auth.ts) and no tool schema asks for them. A scheme mapped to a caller's header
 * (`--upstream-header`, caller.ts) is each user's own and is not read from the environment.
 */
import { authEnvName } from '../ir/security-schemes.js';

export interface ApiCredentials {
  /** Scheme name → credential, the tool runtime's `auth` option. */
  auth: Record<string, string>;
  /** Schemes filled (names only, never values) and those no variable fills, for the start-up line. */
  used: string[];
  missing: string[];
}

/**
 * `schemes`: the spec's security scheme names. `perCaller`: schemes each HTTP caller supplies (caller.ts);
 * the environment is not read for them.
 */
export function apiCredentials(
  schemes: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  perCaller: readonly string[] = [],
): ApiCredentials {
  const out: ApiCredentials = { auth: {}, used: [], missing: [] };
  for (const name of [...new Set(schemes)].sort()) {
    if (perCaller.includes(name)) continue;
    const value = env[authEnvName(name)];
    if (value === undefined || value === '') out.missing.push(name);
    else {
      out.auth[name] = value;
      out.used.push(name);
    }
  }
  return out;
}
