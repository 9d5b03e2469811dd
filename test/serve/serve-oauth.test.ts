/**
 * `idemgen serve --http` as an OAuth 2.1 resource server, black-box: the real CLI on a counting fake API,
 * tokens from a real authorization server (oidc-provider, client credentials with resource indicators),
 * and the MCP SDK client over Streamable HTTP.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type JWK, SignJWT, importJWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { call, errorOf, httpClient } from '../emit/mcp/client.js';
import { ACCOUNT, NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { signingKey, startOidcServer, type OidcClient, type OidcServer } from './oidc-server.js';
import { spawnServe, type ServeProcess } from './spawn-serve.js';

const WRITE = 'createMessage';
const READ = 'listMessages';
const ALICE: OidcClient = { id: 'alice', secret: 'alice-client-secret-0123', scope: 'mcp:read mcp:write' };
const BOB: OidcClient = { id: 'bob', secret: 'bob-client-secret-012345', scope: 'mcp:read mcp:write' };
const READER: OidcClient = { id: 'reader', secret: 'reader-client-secret-01', scope: 'mcp:read' };

const dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-oauth-'));
const spec = join(dir, 'notes.json');
writeFileSync(spec, JSON.stringify(NOTES_SPEC));

let key: JWK;
let as: OidcServer;
/** Another authorization server signing with the same key: only its `iss` is wrong. */
let other: OidcServer;
let api: FaultServer;
let audience = '';
const running: ServeProcess[] = [];

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function serve(extra: string[], env: Record<string, string> = {}): Promise<{ url: string; aud: string }> {
  const port = await freePort();
  const aud = `http://127.0.0.1:${port}/mcp`;
  const p = await spawnServe(
    [
      spec,
      '--http',
      String(port),
      '--base-url',
      api.url,
      '--arg',
      `AccountSid=${ACCOUNT}`,
      '--store',
      `sqlite:${join(dir, `store-${port}.sqlite`)}`,
      '--auth-issuer',
      as.issuer,
      '--auth-audience',
      aud,
      ...extra,
    ],
    env,
  );
  running.push(p);
  return { url: p.url, aud };
}

let url = '';
beforeAll(async () => {
  key = await signingKey('as-key-1');
  as = await startOidcServer([ALICE, BOB, READER], key);
  other = await startOidcServer([ALICE], key);
  api = await startFaultServer();
  ({ url, aud: audience } = await serve([]));
}, 90_000);

afterAll(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  await api?.close();
  await as?.close();
  await other?.close();
});

afterEach(() => {
  api.requests.length = 0;
});

const message = (k: string) => ({ body: { to: '+15550100', body: 'hello' }, idempotency_key: k });
const post = (headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: WRITE, arguments: message('raw-http-oauth-key-01') },
    }),
  });

async function hand(claims: Record<string, unknown>, signWith: JWK = key): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: 'mcp:read mcp:write', client_id: 'alice', ...claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: signWith.kid as string })
    .setSubject((claims.sub as string | undefined) ?? 'alice')
    .setIssuer((claims.iss as string | undefined) ?? as.issuer)
    .setAudience((claims.aud as string | undefined) ?? audience)
    .setIssuedAt(now - 600)
    .setExpirationTime((claims.exp as number | undefined) ?? now + 300)
    .sign(await importJWK(signWith, 'RS256'));
}

describe('serve --http as an OAuth resource server', () => {
  it('answers no token with 401 and a challenge naming its resource metadata, which names the issuer', async () => {
    const res = await post();
    expect(res.status).toBe(401);
    const metadataUrl = `${new URL(audience).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: audience, authorization_servers: [as.issuer] });
    expect(metadata.scopes_supported).toContain('mcp:write');
    const root = await fetch(`${new URL(audience).origin}/.well-known/oauth-protected-resource`);
    expect(((await root.json()) as { resource: string }).resource).toBe(audience);
    // The MCP SDK client cannot even initialize without a token.
    await expect(httpClient(url)).rejects.toMatchObject({ code: 401 });
    expect(api.requests).toHaveLength(0);
  });

  it('refuses wrong audience, wrong issuer, expired, not-yet-valid and foreign-key tokens with 401 invalid_token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const foreign = await signingKey('someone-elses-key');
    const impostor = { ...(await signingKey('x')), kid: key.kid };
    const cases: [string, string, RegExp][] = [
      [
        'wrong audience',
        await as.token(ALICE, 'http://127.0.0.1:9/other-mcp', 'mcp:write'),
        /not meant for this server/,
      ],
      ['wrong issuer', await other.token(ALICE, audience, 'mcp:write'), /another authorization server/],
      ['expired', await hand({ exp: now - 120 }), /expired/],
      ['not yet valid', await hand({ nbf: now + 600 }), /not valid yet/],
      ['unknown signing key', await hand({}, foreign), /not signed by a key of the issuer/],
      ['forged under a known kid', await hand({}, impostor), /signature does not verify/],
      ['not a JWT', 'opaque-token-value-0123456789', /not a valid signed JWT/],
      ['no subject', await hand({ sub: '' }), /names no subject in claim sub/],
    ];
    for (const [label, token, reason] of cases) {
      const res = await post({ authorization: `Bearer ${token}` });
      const challenge = res.headers.get('www-authenticate') ?? '';
      const body = await res.text();
      expect({ label, status: res.status, reason: reason.test(body) }).toEqual({ label, status: 401, reason: true });
      expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="http/);
      await expect(httpClient(url, { authorization: `Bearer ${token}` })).rejects.toMatchObject({ code: 401 });
    }
    expect(api.requests).toHaveLength(0);
    // The control: the same hand-made token, valid, is accepted.
    const ok = await httpClient(url, { authorization: `Bearer ${await hand({})}` });
    expect((await ok.listTools()).tools.map((t) => t.name).sort()).toEqual([WRITE, READ].sort());
    await ok.close();
  });

  it('a token without the write scope lists only reads, and a write is refused as not executed', async () => {
    const reader = await httpClient(url, {
      authorization: `Bearer ${await as.token(READER, audience, 'mcp:read')}`,
    });
    try {
      expect((await reader.listTools()).tools.map((t) => t.name)).toEqual([READ]);
      const before = api.effects;
      const refused = await call(reader, WRITE, message('reader-tries-to-write-1'));
      expect(refused.isError).toBe(true);
      expect(errorOf(refused)).toMatchObject({ code: 'insufficient_scope', executed: 'no' });
      expect(JSON.stringify(refused.content)).toMatch(/mcp:write/);
      expect(api.effects - before).toBe(0);
      expect(api.requests).toHaveLength(0);
      // Reads still work.
      const read = await call(reader, READ, {});
      expect(read.isError).toBeFalsy();
      expect(api.requests).toHaveLength(1);
    } finally {
      await reader.close();
    }
  });

  it('the token subject is the dedup scope: two users with one key → two effects, one user twice → one', async () => {
    const alice = await httpClient(url, { authorization: `Bearer ${await as.token(ALICE, audience, 'mcp:write')}` });
    const bob = await httpClient(url, { authorization: `Bearer ${await as.token(BOB, audience, 'mcp:write')}` });
    try {
      const before = api.effects;
      const a1 = await call(alice, WRITE, message('shared-key-oauth-users-1'));
      const b1 = await call(bob, WRITE, message('shared-key-oauth-users-1'));
      const a2 = await call(alice, WRITE, message('shared-key-oauth-users-1'));
      expect(a1.structuredContent).toMatchObject({ was_replay: false });
      expect(b1.structuredContent).toMatchObject({ was_replay: false });
      expect(a2.structuredContent).toMatchObject({ was_replay: true });
      expect(api.effects - before).toBe(2);
      // The MCP access token never reaches the API.
      for (const r of api.requests) expect(String(r.headers.authorization ?? '')).not.toMatch(/^Bearer ey/);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});

describe('serve --http --dynamic with OAuth', () => {
  it('search_tools shows a read-only token only reads, and invoke_tool of a write is refused', async () => {
    const { url: dynamic, aud } = await serve(['--dynamic']);
    const reader = await httpClient(dynamic, { authorization: `Bearer ${await as.token(READER, aud, 'mcp:read')}` });
    const writer = await httpClient(dynamic, { authorization: `Bearer ${await as.token(ALICE, aud, 'mcp:write')}` });
    try {
      const names = async (c: typeof reader) => {
        const r = await call(c, 'search_tools', { query: 'messages' });
        return (r.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name).sort();
      };
      expect(await names(reader)).toEqual([READ]);
      expect(await names(writer)).toEqual([WRITE, READ].sort());
      const refused = await call(reader, 'invoke_tool', { name: WRITE, arguments: message('dynamic-reader-key-01') });
      expect(errorOf(refused)).toMatchObject({ code: 'insufficient_scope', executed: 'no' });
      expect(api.requests).toHaveLength(0);
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});

describe('upstream credentials per user', () => {
  it("calls the API with each caller's own credential from the mapped header, never the server's", async () => {
    const { url: perUser, aud } = await serve(['--upstream-header', 'bearerAuth=X-Upstream-Token'], {
      IDEMGEN_AUTH_BEARERAUTH: 'server-wide-secret-never-used',
    });
    const token = await as.token(ALICE, aud, 'mcp:write');
    const withOwn = await httpClient(perUser, {
      authorization: `Bearer ${token}`,
      'x-upstream-token': 'alice-own-api-token',
    });
    const without = await httpClient(perUser, { authorization: `Bearer ${await as.token(BOB, aud, 'mcp:write')}` });
    try {
      const before = api.effects;
      const ok = await call(withOwn, WRITE, message('per-user-upstream-key-1'));
      expect(ok.isError).toBeFalsy();
      expect(api.requests.map((r) => r.headers.authorization)).toEqual(['Bearer alice-own-api-token']);
      const refused = await call(without, WRITE, message('per-user-upstream-key-2'));
      expect(errorOf(refused)).toMatchObject({ code: 'upstream_credential_missing', executed: 'no' });
      expect(api.effects - before).toBe(1);
      expect(api.requests).toHaveLength(1);
    } finally {
      await withOwn.close();
      await without.close();
    }
  });
});

describe('OAuth from the config file', () => {
  it('serve.auth does what the flags do', async () => {
    const port = await freePort();
    const aud = `http://127.0.0.1:${port}/mcp`;
    const config = join(dir, 'oauth.config.json');
    writeFileSync(
      config,
      JSON.stringify({ serve: { auth: { issuer: as.issuer, audience: aud, writeScope: 'notes:send' } } }),
    );
    const p = await spawnServe([
      spec,
      '--config',
      config,
      '--http',
      String(port),
      '--base-url',
      api.url,
      '--arg',
      `AccountSid=${ACCOUNT}`,
      '--store',
      `sqlite:${join(dir, 'config.sqlite')}`,
    ]);
    running.push(p);
    expect(p.stderr()).toMatch(
      /OAuth access token from http:\/\/127\.0\.0\.1:\d+ for .* required; writes need notes:send/,
    );
    const res = await fetch(p.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')?.[1] ?? '';
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({
      resource: aud,
      authorization_servers: [as.issuer],
      scopes_supported: ['notes:send'],
    });
    // An mcp:write token is not enough here: the configured write scope is notes:send.
    const c = await httpClient(p.url, { authorization: `Bearer ${await as.token(ALICE, aud, 'mcp:write')}` });
    try {
      expect((await c.listTools()).tools.map((t) => t.name)).toEqual([READ]);
    } finally {
      await c.close();
    }
  });
});

describe('OAuth settings are checked before the server starts', () => {
  it('names each bad setting (exit 2, no stack trace)', async () => {
    const cases: [string[], RegExp][] = [
      [['--auth-issuer', 'http://127.0.0.1:1'], /issuer is set but not the audience/],
      [['--auth-issuer', 'not a url', '--auth-audience', 'http://127.0.0.1:1/mcp'], /"not a url" is not a URL/],
      [['--auth-issuer', 'ftp://a', '--auth-audience', 'http://127.0.0.1:1/mcp'], /must use https/],
      [
        ['--auth-issuer', 'http://a', '--auth-audience', 'http://b/mcp', '--auth-write-scope', 'a b'],
        /write scope must be one non-empty word/,
      ],
      [
        ['--auth-issuer', 'http://a', '--auth-audience', 'http://b/mcp', '--token', 'alice=0123456789abcdef0'],
        /choose one kind of token/,
      ],
      [['--upstream-header', 'bearerAuth=Authorization'], /never forwarded upstream/],
      [
        ['--upstream-header', 'apiKey=x-api-key'],
        /names no security scheme of the specs: apiKey \(the specs have: bearerAuth\)/,
      ],
    ];
    for (const [flags, reason] of cases) {
      const run = await runCli(['serve', spec, '--http', '0', ...flags], dir);
      expect({ flags, code: run.code, reason: reason.test(run.stderr), stack: /\n\s+at /.test(run.stderr) }).toEqual({
        flags,
        code: 2,
        reason: true,
        stack: false,
      });
    }
    const config = join(dir, 'bad.config.json');
    writeFileSync(config, JSON.stringify({ serve: { auth: { issuer: 'http://a', audince: 'x' } } }));
    const bad = await runCli(['serve', spec, '--config', config, '--http', '0'], dir);
    expect([bad.code, /Unknown serve.auth key "audince"/.test(bad.stderr)]).toEqual([2, true]);
  });
});
