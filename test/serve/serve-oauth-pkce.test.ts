/**
 * The token an MCP client really gets: the authorization-code flow with PKCE (S256) against a real
 * authorization server (oidc-provider on 127.0.0.1, its own sign-in and consent pages), the access token
 * (a JWT for the MCP server's URL as resource indicator) used by the MCP SDK client against
 * `idemgen serve --http`. The client here does by hand what a browser and an MCP host do: follow
 * redirects, keep cookies, submit the two forms, read the code off the redirect URI.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, errorOf, httpClient } from '../emit/mcp/client.js';
import { ACCOUNT, NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { type FaultServer, startFaultServer } from '../helpers/fault-server.js';
import { type OidcCodeClient, type OidcServer, signingKey, startOidcServer } from './oidc-server.js';
import { type ServeProcess, spawnServe } from './spawn-serve.js';

const WRITE = 'createMessage';
const READ = 'listMessages';
/** The MCP host's client: public (no secret), a loopback redirect URI nothing listens on. */
const HOST: OidcCodeClient = {
  id: 'mcp-host',
  redirectUri: 'http://127.0.0.1:9/callback',
  scope: 'mcp:read mcp:write',
};

const dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-pkce-'));
const spec = join(dir, 'notes.json');
writeFileSync(spec, JSON.stringify(NOTES_SPEC));

let as: OidcServer;
let api: FaultServer;
let serve: ServeProcess;
/** The MCP server's URL: the audience serve checks and the resource indicator the client asks for. */
let resource = '';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  as = await startOidcServer([], await signingKey('pkce-as-key'), [HOST]);
  api = await startFaultServer();
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  serve = await spawnServe([
    spec,
    '--http',
    String(port),
    '--base-url',
    api.url,
    '--arg',
    `AccountSid=${ACCOUNT}`,
    '--store',
    `sqlite:${join(dir, 'store.sqlite')}`,
    '--auth-issuer',
    as.issuer,
    '--auth-audience',
    resource,
  ]);
}, 90_000);

afterAll(async () => {
  await serve?.stop();
  await api?.close();
  await as?.close();
});

afterEach(() => {
  api.requests.length = 0;
});

/** A browser's cookie jar, enough for one origin: the provider ties the interaction to its cookies. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1] ?? '') < Date.now());
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** One request as a browser makes it, not following the redirect (the caller decides). */
async function visit(jar: Jar, url: string, form?: Record<string, string>): Promise<Response> {
  const res = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie: jar.header(),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form) : undefined,
  });
  jar.take(res);
  return res;
}

const b64url = (b: Buffer) => b.toString('base64url');

/** A fresh verifier and its S256 challenge (RFC 7636 §4.1–4.2). */
function pkcePair(): { verifier: string; challenge: string } {
  const verifier = b64url(randomBytes(32));
  return { verifier, challenge: b64url(createHash('sha256').update(verifier).digest()) };
}

/**
 * The front channel: an authorization request with `code_challenge` (S256) and `resource`, the user
 * signs in as `user` and consents on the provider's interaction pages, and the code comes back on the
 * redirect URI. Returns that final redirect's query.
 */
async function authorize(scope: string, challenge: string, user: string): Promise<URLSearchParams> {
  const jar = new Jar();
  const state = b64url(randomBytes(12));
  const start = new URL('/auth', as.issuer);
  start.search = new URLSearchParams({
    client_id: HOST.id,
    redirect_uri: HOST.redirectUri,
    response_type: 'code',
    scope,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
  }).toString();
  let res = await visit(jar, start.href);
  for (let hop = 0; hop < 10; hop += 1) {
    const location = res.headers.get('location');
    if (location === null) throw new Error(`no redirect from ${res.url} (${res.status}): ${await res.text()}`);
    const next = new URL(location, as.issuer);
    if (next.href.startsWith(HOST.redirectUri)) {
      expect(next.searchParams.get('state')).toBe(state);
      return next.searchParams;
    }
    if (next.pathname.startsWith('/interaction/')) {
      // The provider's page says which prompt it wants; answer it with its form.
      const page = await (await visit(jar, next.href)).text();
      const prompt = /name="prompt" value="(login|consent)"/.exec(page)?.[1];
      if (prompt === undefined) throw new Error(`unexpected interaction page: ${page.slice(0, 500)}`);
      res = await visit(jar, next.href, prompt === 'login' ? { prompt, login: user, password: 'any' } : { prompt });
    } else {
      res = await visit(jar, next.href);
    }
  }
  throw new Error('the authorization request did not come back to the redirect URI in 10 hops');
}

/** The back channel: the code and the verifier for a token (public client: no secret). */
async function exchange(code: string, verifier: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(new URL('/token', as.issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: HOST.id,
      code,
      redirect_uri: HOST.redirectUri,
      code_verifier: verifier,
      resource,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function tokenFor(scope: string, user: string): Promise<string> {
  const { verifier, challenge } = pkcePair();
  const code = (await authorize(scope, challenge, user)).get('code');
  expect(code).toBeTruthy();
  const { status, body } = await exchange(code as string, verifier);
  expect({ status, tokenType: body.token_type }).toEqual({ status: 200, tokenType: 'Bearer' });
  return body.access_token as string;
}

const message = (k: string) => ({ body: { to: '+15550100', body: 'hello' }, idempotency_key: k });

describe('serve --http with a token from the authorization-code flow with PKCE', () => {
  it('a token for the write scope lists the write, runs it once, and replays its repeat', async () => {
    const token = await tokenFor('mcp:read mcp:write', 'carol');
    // An RFC 9068 JWT for this MCP server, issued to the signed-in user.
    expect(decodeJwt(token)).toMatchObject({
      iss: as.issuer,
      aud: resource,
      sub: 'carol',
      client_id: HOST.id,
      scope: expect.stringContaining('mcp:write'),
    });
    const client = await httpClient(serve.url, { authorization: `Bearer ${token}` });
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([WRITE, READ].sort());
      const before = api.effects;
      const first = await call(client, WRITE, message('pkce-write-key-0001'));
      expect(first.isError).toBeFalsy();
      expect(first.structuredContent).toMatchObject({ was_replay: false });
      const again = await call(client, WRITE, message('pkce-write-key-0001'));
      expect(again.structuredContent).toMatchObject({ was_replay: true });
      expect(api.effects - before).toBe(1);
      // The MCP access token stays at the MCP server.
      for (const r of api.requests) expect(String(r.headers.authorization ?? '')).not.toBe(`Bearer ${token}`);
    } finally {
      await client.close();
    }
  });

  it('a token consented without the write scope is refused the write (insufficient_scope, executed "no")', async () => {
    const token = await tokenFor('mcp:read', 'dave');
    expect(String(decodeJwt(token).scope).split(' ')).not.toContain('mcp:write');
    const client = await httpClient(serve.url, { authorization: `Bearer ${token}` });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([READ]);
      const before = api.effects;
      const refused = await call(client, WRITE, message('pkce-read-only-key-01'));
      expect(refused.isError).toBe(true);
      expect(errorOf(refused)).toMatchObject({ code: 'insufficient_scope', executed: 'no' });
      expect(api.effects - before).toBe(0);
      expect(api.requests).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it('a wrong code_verifier gets no token, and the code alone is worth nothing', async () => {
    const { challenge } = pkcePair();
    const code = (await authorize('mcp:read mcp:write', challenge, 'mallory')).get('code') as string;
    expect(code).toBeTruthy();
    const wrong = await exchange(code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant' });
    expect(wrong.body.access_token).toBeUndefined();
  });

  it('an authorization request without an S256 challenge gets no code', async () => {
    const { verifier } = pkcePair();
    // `plain` sends the verifier itself as the challenge: the provider accepts only S256.
    const plain = new URL('/auth', as.issuer);
    plain.search = new URLSearchParams({
      client_id: HOST.id,
      redirect_uri: HOST.redirectUri,
      response_type: 'code',
      scope: 'mcp:write',
      code_challenge: verifier,
      code_challenge_method: 'plain',
      resource,
    }).toString();
    const none = new URL(plain);
    none.searchParams.delete('code_challenge');
    none.searchParams.delete('code_challenge_method');
    for (const url of [plain, none]) {
      const res = await visit(new Jar(), url.href);
      const back = new URL(res.headers.get('location') ?? '', as.issuer);
      expect({ error: back.searchParams.get('error'), code: back.searchParams.get('code') }).toEqual({
        error: 'invalid_request',
        code: null,
      });
    }
  });
});
