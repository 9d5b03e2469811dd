/**
 * What can be told of a bearer token before any network: that it is a compact JWS (three base64url parts
 * whose header and payload are JSON objects), signed with an algorithm this server accepts, of an accepted
 * type (RFC 9068 §2.1: an access token's `typ` is `at+jwt`; an ID token or any other JWT is not one), and
 * issued by the configured issuer. A token failing any of these is refused at once: it never makes the
 * server discover the issuer or fetch its keys, so garbage tokens cost no request to the authorization server.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';

/** Longer than any access token in practice; a larger header is refused before it is decoded. */
const MAX_TOKEN_CHARS = 16 * 1024;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The `typ` words a server accepts by default: RFC 9068 access tokens only. */
export const DEFAULT_TOKEN_TYPES = ['at+jwt'] as const;
/** In `tokenTypes`: accept a token whose header has no `typ` at all. */
export const NO_TOKEN_TYPE = 'none';

/** `application/at+jwt` and `AT+JWT` are `at+jwt` (RFC 7515 §4.1.9: the `application/` prefix may be left out). */
export function normalTokenType(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

/** `undefined`: the token may go on to signature checks; else why it is refused (one line, never the token). */
export function tokenShapeProblem(
  token: string,
  expect: { issuer: string; algorithms: readonly string[]; tokenTypes: readonly string[] },
): string | undefined {
  if (token.length > MAX_TOKEN_CHARS || !COMPACT_JWS.test(token)) return 'the token is not a valid signed JWT';
  let header: ReturnType<typeof decodeProtectedHeader>;
  let payload: ReturnType<typeof decodeJwt>;
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch {
    return 'the token is not a valid signed JWT';
  }
  if (typeof header.alg !== 'string' || !expect.algorithms.includes(header.alg))
    return 'the token uses a signing algorithm this server refuses';
  const typ = typeof header.typ === 'string' ? normalTokenType(header.typ) : NO_TOKEN_TYPE;
  if (!expect.tokenTypes.includes(typ))
    return typ === NO_TOKEN_TYPE
      ? 'the token has no typ header; an access token is typ at+jwt (RFC 9068)'
      : 'the token is not an access token: its typ is not at+jwt (RFC 9068)';
  if (payload.iss !== expect.issuer) return 'the token was issued by another authorization server';
  return undefined;
}
