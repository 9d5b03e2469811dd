/**
 * The spec's security schemes (one form for every spec version, ir/security-schemes.ts) reduced to where a
 * credential goes. Only what a server can fill without the model: bearer tokens
 * (HTTP bearer, OAuth 2, OpenID Connect), HTTP basic, and API keys in a header, query or cookie.
 */
import { securitySchemesOf } from '../../ir/security-schemes.js';
import type { HttpOperation } from '../../ir/types.js';
import type { BindingSecurity } from '@idemgen/runtime/tools';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const schemesOf = securitySchemesOf;

function reduce(name: string, s: unknown): BindingSecurity | undefined {
  if (!isObj(s)) return undefined;
  const scheme = typeof s.scheme === 'string' ? s.scheme.toLowerCase() : '';
  if (
    s.type === 'apiKey' &&
    typeof s.name === 'string' &&
    (s.in === 'header' || s.in === 'query' || s.in === 'cookie')
  ) {
    return { scheme: name, type: 'apiKey', in: s.in, name: s.name };
  }
  if (s.type === 'http' && scheme === 'basic') return { scheme: name, type: 'basic' };
  if ((s.type === 'http' && scheme === 'bearer') || s.type === 'oauth2' || s.type === 'openIdConnect')
    return { scheme: name, type: 'bearer' };
  return undefined;
}

/**
 * The operation's requirements (its own, else the document's, as the IR resolved them). An alternative
 * naming a scheme we cannot fill (mutual TLS, an unknown name) is dropped; `{}` (anonymous) stays as `[]`.
 */
export function bindingSecurity(op: HttpOperation, root: unknown): BindingSecurity[][] | undefined {
  if (op.security === undefined) return undefined;
  const schemes = schemesOf(root);
  const out: BindingSecurity[][] = [];
  for (const requirement of op.security) {
    const names = Object.keys(requirement).sort();
    const reduced = names.map((n) => reduce(n, schemes[n]));
    if (reduced.every((r): r is BindingSecurity => r !== undefined)) out.push(reduced);
  }
  return out.length > 0 ? out : undefined;
}
