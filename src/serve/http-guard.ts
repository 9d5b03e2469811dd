/**
 * What `idemgen serve --http` checks before a request reaches MCP (the server holds the API's
 * credentials, so it is closed by default): the `Origin` (MCP Streamable HTTP transport rule against DNS
 * rebinding — only loopback origins unless allowed by name), the `Host` on a loopback bind, and the
 * bearer token, which names the subject that becomes the dedup scope.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface TokenEntry {
  subject: string;
  digest: Buffer;
}

const digest = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/** `user1=secret1` names its subject; a bare `secret` is the subject `default`. */
export function parseTokens(values: readonly string[]): TokenEntry[] {
  return values
    .filter((v) => v !== '')
    .map((v) => {
      const eq = v.indexOf('=');
      const subject = eq > 0 ? v.slice(0, eq) : 'default';
      const secret = eq > 0 ? v.slice(eq + 1) : v;
      if (secret.length < 16) throw new TypeError(`the token for subject "${subject}" is shorter than 16 characters`);
      return { subject, digest: digest(secret) };
    });
}

export type GuardVerdict =
  | { ok: true; subject?: string; token?: string }
  | { ok: false; status: number; message: string };

export interface GuardOptions {
  tokens: readonly TokenEntry[];
  allowedOrigins: readonly string[];
  loopbackBind: boolean;
}

function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes(origin)) return true;
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0] ?? '';
}

export function checkRequest(req: IncomingMessage, opts: GuardOptions): GuardVerdict {
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, opts.allowedOrigins)) {
    return {
      ok: false,
      status: 403,
      message: `Origin ${origin} is not allowed (only loopback origins, or --allowed-origin)`,
    };
  }
  if (opts.loopbackBind && !isLoopbackHost(hostName(req.headers.host ?? ''))) {
    return { ok: false, status: 403, message: 'Host is not a loopback name' };
  }
  if (opts.tokens.length === 0) return { ok: true };
  const token = bearerToken(req);
  if (token === undefined) return { ok: false, status: 401, message: 'A bearer token is required' };
  const given = digest(token);
  // Every entry is compared (constant time each), so timing does not tell which subject matched.
  let subject: string | undefined;
  for (const t of opts.tokens) if (timingSafeEqual(t.digest, given)) subject ??= t.subject;
  if (subject === undefined) return { ok: false, status: 401, message: 'The bearer token is not valid' };
  return { ok: true, subject, token };
}

/** The token of an `Authorization: Bearer …` header (RFC 6750 §2.1), if there is one. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match === null ? undefined : match[1];
}
