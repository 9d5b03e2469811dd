/**
 * `idemgen serve --http` as an OAuth 2.1 resource server (the MCP authorization spec): it publishes
 * RFC 9728 protected-resource metadata naming its authorization server, answers a request without a
 * usable token with `401` and a `WWW-Authenticate: Bearer resource_metadata="…"` challenge, and accepts
 * only JWT access tokens issued for it: of type `at+jwt` (RFC 9068; `tokenTypes` widens it), signed by a
 * key of the issuer's JWKS (found through RFC 8414 or OpenID discovery, cached, fetched again for an unknown
 * `kid` at most once per cooldown), with the configured `iss`, this server as `aud`, and `exp`/`nbf` within a
 * small clock tolerance. A token that is not such a JWT is refused before any request to the issuer
 * (token-shape.ts), and a failed discovery or key fetch is not retried before a back-off (1 s, doubling to
 * 60 s), so a flood of bad tokens costs the authorization server a handful of requests. The token's subject
 * becomes the dedup scope; the MCP access token itself never leaves this process.
 */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { DEFAULT_TOKEN_TYPES, NO_TOKEN_TYPE, normalTokenType, tokenShapeProblem } from './token-shape.js';

export interface OAuthSettings {
  /** The authorization server's issuer identifier (`https://auth.example.com`). */
  issuer: string;
  /** This MCP server's canonical URI (`https://mcp.example.com/mcp`): tokens must name it in `aud`. */
  audience: string;
  /** The scope a token needs to call a write tool (default `mcp:write`). */
  writeScope: string;
  /** The claim naming the user (default `sub`): the dedup scope. */
  subjectClaim: string;
  /** Seconds of clock skew accepted on `exp` and `nbf` (default 30). */
  clockToleranceSeconds: number;
  /**
   * The JOSE `typ` values accepted (lower case, no `application/`): default `at+jwt` only (RFC 9068);
   * `none` accepts a token without `typ`. For issuers whose access tokens say `JWT`.
   */
  tokenTypes: string[];
}

const DEFAULT_WRITE_SCOPE = 'mcp:write';
const DEFAULT_SUBJECT_CLAIM = 'sub';
const DEFAULT_TOLERANCE = 30;
/** A token naming an unknown `kid` makes the verifier fetch the JWKS again, at most this often. */
const JWKS_COOLDOWN_MS = 30_000;
const JWKS_MAX_AGE_MS = 10 * 60_000;
/** After a failed discovery or key fetch, no request to the issuer for this long, doubling per failure up to the max. */
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** What a user gives, from flags or `serve.auth` in the config: checked by `oauthSettings`. */
export interface OAuthInput {
  issuer?: unknown;
  audience?: unknown;
  writeScope?: unknown;
  subjectClaim?: unknown;
  clockToleranceSeconds?: unknown;
  tokenTypes?: unknown;
}

function httpUrl(value: unknown, what: string, problems: string[]): string | undefined {
  if (typeof value !== 'string' || value === '') {
    problems.push(`${what} must be an http(s) URL`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${what} ${JSON.stringify(value)} is not a URL`);
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    problems.push(`${what} ${JSON.stringify(value)} must use https (http only for local testing)`);
  else if (url.search !== '' || url.hash !== '')
    problems.push(`${what} ${JSON.stringify(value)} must not have a query or fragment`);
  return value;
}

/** `--auth-token-type` / `serve.auth.tokenTypes`: JOSE `typ` words (or `none`), normalised; default `at+jwt`. */
function tokenTypesOf(value: unknown, problems: string[]): string[] {
  if (value === undefined) return [...DEFAULT_TOKEN_TYPES];
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((t) => typeof t === 'string' && /^[A-Za-z0-9!#$&^_.+/-]+$/.test(t))) {
    problems.push(
      `the accepted token types must be JOSE typ values such as at+jwt or JWT, or ${NO_TOKEN_TYPE} for a token without typ`,
    );
    return [...DEFAULT_TOKEN_TYPES];
  }
  return [...new Set(list.map((t) => normalTokenType(t as string)))].sort();
}

/** Checks the settings; returns them or the problems, each a sentence naming the option. */
export function oauthSettings(input: OAuthInput): { settings?: OAuthSettings; problems: string[] } {
  const problems: string[] = [];
  if (input.issuer === undefined && input.audience === undefined) {
    for (const k of ['writeScope', 'subjectClaim', 'clockToleranceSeconds', 'tokenTypes'] as const)
      if (input[k] !== undefined) problems.push(`${k} applies to OAuth only: set the issuer and audience too`);
    return { problems };
  }
  if (input.issuer === undefined) problems.push('the audience is set but not the issuer (--auth-issuer)');
  if (input.audience === undefined) problems.push('the issuer is set but not the audience (--auth-audience)');
  const issuer = input.issuer === undefined ? undefined : httpUrl(input.issuer, 'the issuer', problems);
  const audience = input.audience === undefined ? undefined : httpUrl(input.audience, 'the audience', problems);
  const word = (v: unknown, what: string, fallback: string): string => {
    if (v === undefined) return fallback;
    if (typeof v !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(v)) {
      problems.push(`${what} must be one non-empty word of printable ASCII (no spaces, quotes or backslashes)`);
      return fallback;
    }
    return v;
  };
  const writeScope = word(input.writeScope, 'the write scope', DEFAULT_WRITE_SCOPE);
  const subjectClaim = word(input.subjectClaim, 'the subject claim', DEFAULT_SUBJECT_CLAIM);
  const tolerance = input.clockToleranceSeconds ?? DEFAULT_TOLERANCE;
  if (typeof tolerance !== 'number' || !Number.isInteger(tolerance) || tolerance < 0 || tolerance > 300)
    problems.push('the clock tolerance must be a whole number of seconds from 0 to 300');
  const tokenTypes = tokenTypesOf(input.tokenTypes, problems);
  if (problems.length > 0 || issuer === undefined || audience === undefined) return { problems };
  return {
    settings: { issuer, audience, writeScope, subjectClaim, clockToleranceSeconds: tolerance as number, tokenTypes },
    problems,
  };
}

/** RFC 9728 §3.1: the metadata URL inserts the well-known segment before the resource's path. */
export function resourceMetadataUrl(audience: string): string {
  const url = new URL(audience);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** The paths this server answers with its metadata: the root form and the one for the resource's path. */
export function resourceMetadataPaths(audience: string): string[] {
  return [...new Set(['/.well-known/oauth-protected-resource', new URL(resourceMetadataUrl(audience)).pathname])];
}

/** The RFC 9728 document: which authorization server issues tokens for this resource and with what scopes. */
export function resourceMetadata(s: OAuthSettings): Record<string, unknown> {
  return {
    resource: s.audience,
    authorization_servers: [s.issuer],
    scopes_supported: [s.writeScope],
    bearer_methods_supported: ['header'],
    resource_name: 'idemgen serve',
  };
}

const quoted = (v: string): string => `"${v.replace(/["\\]/g, '')}"`;

/** The `WWW-Authenticate` value of a 401: no token (no error code) or a rejected one (`invalid_token`). */
export function challenge(s: OAuthSettings, error?: { code: string; description: string }): string {
  const parts = [`resource_metadata=${quoted(resourceMetadataUrl(s.audience))}`];
  if (error !== undefined)
    parts.unshift(`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`);
  return `Bearer ${parts.join(', ')}`;
}

/** A verified token: who (the dedup scope), what it may do, and when it ends. */
interface VerifiedToken {
  subject: string;
  scopes: string[];
  clientId: string;
  expiresAt?: number;
}

type Verdict =
  | { ok: true; token: VerifiedToken }
  | { ok: false; status: 401; description: string }
  | { ok: false; status: 503; description: string };

function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/**
 * Where the issuer's metadata lives (MCP authorization spec, in its order): RFC 8414 with the
 * well-known segment inserted before the issuer's path, OpenID Connect inserted, OpenID Connect appended.
 */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const urls = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
  ];
  if (path !== '') urls.push(`${url.origin}${path}/.well-known/openid-configuration`);
  return urls;
}

class DiscoveryError extends Error {}

async function discoverJwksUri(issuer: string, fetchImpl: typeof fetch): Promise<string> {
  const tried: string[] = [];
  for (const url of discoveryUrls(issuer)) {
    let res: Response;
    try {
      res = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    } catch (err) {
      tried.push(`${url}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      tried.push(`${url}: HTTP ${res.status}`);
      continue;
    }
    const doc = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    // RFC 8414 §3.3: the document must name the issuer it was fetched for, or it is not to be used.
    if (doc?.issuer !== issuer) {
      tried.push(`${url}: names issuer ${JSON.stringify(doc?.issuer)}, not ${issuer}`);
      continue;
    }
    if (typeof doc.jwks_uri !== 'string') {
      tried.push(`${url}: no jwks_uri`);
      continue;
    }
    return doc.jwks_uri;
  }
  throw new DiscoveryError(`no usable metadata for issuer ${issuer} (${tried.join('; ')})`);
}

export interface TokenVerifier {
  verify(token: string): Promise<Verdict>;
}

/**
 * The issuer's key set, discovered once and shared; a failure (discovery or a key fetch) is remembered for a
 * back-off that doubles per consecutive failure, and a success resets it. While backing off every caller gets
 * the last failure at once, with no request to the issuer.
 */
function issuerKeys(s: OAuthSettings, fetchImpl: typeof fetch, cooldownMs: number, now: () => number) {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  let failure: { until: number; delay: number; reason: string } | undefined;
  /** A discovery or key fetch failed: forget the key set and back off. */
  const failed = (err: unknown): void => {
    keys = undefined;
    // Callers that shared the failed fetch all report it: one failure, one step of back-off.
    if (failure !== undefined && now() < failure.until) return;
    const delay = failure === undefined ? BACKOFF_FIRST_MS : Math.min(failure.delay * 2, BACKOFF_MAX_MS);
    failure = { until: now() + delay, delay, reason: message(err) };
  };
  const get = (): Promise<ReturnType<typeof createRemoteJWKSet>> => {
    if (failure !== undefined && now() < failure.until) return Promise.reject(new DiscoveryError(failure.reason));
    if (keys === undefined) {
      const pending = discoverJwksUri(s.issuer, fetchImpl).then((uri) =>
        createRemoteJWKSet(new URL(uri), { cooldownDuration: cooldownMs, cacheMaxAge: JWKS_MAX_AGE_MS }),
      );
      keys = pending;
      pending.catch(failed);
    }
    return keys;
  };
  const succeeded = (): void => {
    failure = undefined;
  };
  return { get, failed, succeeded };
}

/**
 * Discovery runs at the first well-formed token and again after a failure's back-off; the key set is jose's
 * remote JWKS cache. `cooldownMs`: the least time between two JWKS fetches for unknown `kid`s (default 30 s).
 */
export function createTokenVerifier(
  s: OAuthSettings,
  fetchImpl: typeof fetch = fetch,
  cooldownMs = JWKS_COOLDOWN_MS,
  now: () => number = Date.now,
): TokenVerifier {
  const issuer = issuerKeys(s, fetchImpl, cooldownMs, now);
  const shape = { issuer: s.issuer, algorithms: ALGORITHMS, tokenTypes: s.tokenTypes };
  return {
    async verify(token) {
      const problem = tokenShapeProblem(token, shape);
      if (problem !== undefined) return { ok: false, status: 401, description: problem };
      let jwks: ReturnType<typeof createRemoteJWKSet>;
      try {
        jwks = await issuer.get();
      } catch (err) {
        return { ok: false, status: 503, description: `the authorization server cannot be reached: ${message(err)}` };
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, {
          issuer: s.issuer,
          audience: s.audience,
          clockTolerance: s.clockToleranceSeconds,
          algorithms: ALGORITHMS,
          requiredClaims: ['exp'],
        }));
      } catch (err) {
        if (err instanceof joseErrors.JWKSTimeout || !(err instanceof joseErrors.JOSEError)) {
          issuer.failed(err);
          return { ok: false, status: 503, description: `the issuer's keys cannot be fetched: ${message(err)}` };
        }
        return { ok: false, status: 401, description: rejection(err) };
      }
      issuer.succeeded();
      const subject = payload[s.subjectClaim];
      if (typeof subject !== 'string' || subject === '')
        return { ok: false, status: 401, description: `the token names no subject in claim ${s.subjectClaim}` };
      const clientId =
        typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : '';
      return { ok: true, token: { subject, scopes: scopesOf(payload), clientId, expiresAt: payload.exp } };
    },
  };
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** One line a client may show: which check failed (never the token). */
function rejection(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return 'the token was issued by another authorization server';
    if (err.claim === 'aud') return 'the token is not meant for this server (aud)';
    if (err.claim === 'nbf') return 'the token is not valid yet (nbf)';
    return `the token's ${err.claim} claim is not acceptable`;
  }
  if (err instanceof joseErrors.JWKSNoMatchingKey) return "the token is not signed by a key of the issuer's JWKS";
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'the token uses a signing algorithm this server refuses';
  return 'the token is not a valid signed JWT access token';
}
