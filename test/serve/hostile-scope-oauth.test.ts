/**
 * OAuth against a hostile caller: a flood of garbage bearer tokens costs the authorization server (a real
 * oidc-provider, counting its requests) nothing, while the server keeps answering; a JWT that is not an
 * access token (`typ: JWT`, or none) is refused unless `--auth-token-type` accepts it; a failed discovery is
 * remembered with back-off instead of being retried per request; and one OAuth subject acting on two
 * upstream accounts (`--upstream-header`) gets two effects for one key.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, oauthSettings } from '../../src/serve/oauth.js';
import { jsonAnswer, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { call, errorOf, httpClient } from '../emit/mcp/client.js';
import { ACCOUNT, NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { signingKey, startOidcServer, type OidcClient, type OidcServer } from './oidc-server.js';
import { spawnServe, type ServeProcess } from './spawn-serve.js';

const ALICE: OidcClient = { id: 'alice', secret: 'alice-client-secret-0123', scope: 'mcp:read mcp:write' };
const dir = mkdtempSync(join(tmpdir(), 'idemgen-hostile-oauth-'));
const spec = join(dir, 'notes.json');
writeFileSync(spec, JSON.stringify(NOTES_SPEC));

let key: JWK;
let as: OidcServer;
let api: FaultServer;
const running: ServeProcess[] = [];

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function serve(extra: string[]): Promise<{ url: string; aud: string }> {
  const port = await freePort();
  const aud = `http://127.0.0.1:${port}/mcp`;
  const p = await spawnServe([
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
  ]);
  running.push(p);
  return { url: p.url, aud };
}

let strict: { url: string; aud: string };
let lenient: { url: string; aud: string };

beforeAll(async () => {
  key = await signingKey('hostile-key-1');
  as = await startOidcServer([ALICE], key);
  api = await startFaultServer({
    respond: (req, effect) => jsonAnswer(200, { effect, account: req.headers.authorization }),
  });
  [strict, lenient] = await Promise.all([
    serve(['--upstream-header', 'bearerAuth=X-Upstream-Token']),
    serve(['--auth-token-type', 'JWT', '--auth-token-type', 'at+jwt']),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  await api?.close();
  await as?.close();
});

/** A token the issuer's key signs, with the header type and claims given (the provider itself only mints at+jwt). */
async function signed(aud: string, typ: string | undefined, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ scope: 'mcp:read mcp:write', client_id: 'alice', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid as string, ...(typ !== undefined ? { typ } : {}) })
    .setSubject('alice')
    .setIssuer((claims.iss as string | undefined) ?? as.issuer)
    .setAudience(aud)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(await importJWK(key, 'RS256'));
}

const listTools = (url: string, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

/** 30 tokens no authorization server issued: random text, broken JWTs, `alg: none`, another issuer's. */
function garbageTokens(otherIssuerToken: string): string[] {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const shapes = [
    (i: number) => `garbage-${i}-${'x'.repeat(i)}`,
    (i: number) => `${b64({ alg: 'RS256', typ: 'at+jwt' })}.not-json-${i}.sig`,
    (i: number) => `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ iss: as.issuer, sub: `u${i}` })}.`,
    (i: number) => `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ iss: as.issuer, sub: `u${i}` })}.c2ln`,
    (i: number) => `a.b.${i}`,
    () => otherIssuerToken,
  ];
  return Array.from({ length: 30 }, (_, i) => shapes[i % shapes.length]!(i));
}

describe('serve --auth-issuer: garbage bearer tokens', () => {
  it('30 garbage tokens at once → 401 each, at most a handful of issuer requests, metadata answers within 2 s', async () => {
    // The server has discovered the issuer once (a real token), as a running server would have.
    const real = await as.token(ALICE, strict.aud, 'mcp:read mcp:write');
    expect((await listTools(strict.url, real)).status).toBe(200);
    const other = await signed(strict.aud, 'at+jwt', { iss: 'https://elsewhere.example' });
    const before = as.requests.length;
    const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', strict.url).toString();
    const burst = Promise.all(garbageTokens(other).map((t) => listTools(strict.url, t)));
    const t0 = performance.now();
    const metadata = await fetch(metadataUrl);
    const metadataMs = performance.now() - t0;
    const answers = await burst;
    expect(metadata.status).toBe(200);
    expect(metadataMs).toBeLessThan(2_000); // room for a loaded 2-core machine; the request count below is what shows no discovery per token
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(401));
    expect(answers.every((r) => /error="invalid_token"/.test(r.headers.get('www-authenticate') ?? ''))).toBe(true);
    expect(as.requests.length - before).toBeLessThanOrEqual(3);
    // A real token still works after the burst.
    expect((await listTools(strict.url, real)).status).toBe(200);
  });

  it('a JWT of typ JWT (an ID-token-like JWT, not at+jwt) or without typ is refused; --auth-token-type JWT accepts it', async () => {
    const jwtTyped = await signed(strict.aud, 'JWT');
    const untyped = await signed(strict.aud, undefined);
    const refused = await listTools(strict.url, jwtTyped);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/its typ is not at\+jwt/);
    expect((await listTools(strict.url, untyped)).status).toBe(401);
    expect((await listTools(strict.url, await signed(strict.aud, 'application/at+jwt'))).status).toBe(200);

    expect((await listTools(lenient.url, await signed(lenient.aud, 'JWT'))).status).toBe(200);
    expect((await listTools(lenient.url, await signed(lenient.aud, 'at+jwt'))).status).toBe(200);
    expect((await listTools(lenient.url, await signed(lenient.aud, undefined))).status).toBe(401);
  });

  it('--auth-token-type with a bad value, or serve.auth.tokenTypes not a list, refuses to start (exit 2)', async () => {
    const flag = await runCli(
      [
        'serve',
        spec,
        '--http',
        '0',
        '--auth-issuer',
        as.issuer,
        '--auth-audience',
        'http://x/mcp',
        '--auth-token-type',
        'a b',
      ],
      dir,
    );
    expect([flag.code, /accepted token types must be JOSE typ values/.test(flag.stderr)]).toEqual([2, true]);
    const config = join(dir, 'types.config.json');
    writeFileSync(
      config,
      JSON.stringify({ serve: { auth: { issuer: as.issuer, audience: 'http://x/mcp', tokenTypes: 'JWT' } } }),
    );
    const bad = await runCli(['serve', spec, '--config', config, '--http', '0'], dir);
    expect([bad.code, /tokenTypes must be a non-empty array/.test(bad.stderr)]).toEqual([2, true]);
  });
});

describe('serve --auth-issuer --upstream-header: one subject, two upstream accounts', () => {
  it('the same key under one OAuth subject with two API credentials → 2 effects, each its own result', async () => {
    const token = await as.token(ALICE, strict.aud, 'mcp:read mcp:write');
    const one = await httpClient(strict.url, { authorization: `Bearer ${token}`, 'x-upstream-token': 'acct-one' });
    const two = await httpClient(strict.url, { authorization: `Bearer ${token}`, 'x-upstream-token': 'acct-two' });
    try {
      const before = api.effects;
      const args = { body: { to: '+15550100', body: 'hi' }, idempotency_key: 'oauth-two-accounts-key-1' };
      const a = await call(one, 'createMessage', args);
      const b = await call(two, 'createMessage', args);
      expect(errorOf(a)).toBeUndefined();
      expect(errorOf(b)).toBeUndefined();
      expect(api.effects - before).toBe(2);
      expect([a.structuredContent?.result, b.structuredContent?.result]).toMatchObject([
        { account: 'Bearer acct-one' },
        { account: 'Bearer acct-two' },
      ]);
      expect((await call(two, 'createMessage', args)).structuredContent).toMatchObject({
        was_replay: true,
        result: { account: 'Bearer acct-two' },
      });
      expect(api.effects - before).toBe(2);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

/** An issuer whose metadata endpoints fail: counts what the verifier asks of it. */
async function failingIssuer(): Promise<{ issuer: string; requests: () => number; server: Server }> {
  let n = 0;
  const server = createHttpServer((_req, res) => {
    n += 1;
    res.writeHead(500);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => n,
    server,
  };
}

describe('token verifier: discovery failures are remembered', () => {
  it('30 well-formed tokens while discovery fails → one discovery round, then back-off (1 s, doubling)', async () => {
    const down = await failingIssuer();
    try {
      const { settings } = oauthSettings({ issuer: down.issuer, audience: 'https://mcp.example/mcp' });
      let clock = 0;
      const verifier = createTokenVerifier(settings!, fetch, undefined, () => clock);
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const priv = await importJWK({ ...(await exportJWK(privateKey)), alg: 'ES256' }, 'ES256');
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k' })
        .setIssuer(down.issuer)
        .setAudience('https://mcp.example/mcp')
        .setSubject('u')
        .setExpirationTime('5m')
        .sign(priv);
      const verdicts = await Promise.all(Array.from({ length: 30 }, () => verifier.verify(token)));
      expect(verdicts.every((v) => !v.ok && v.status === 503)).toBe(true);
      // One round of discovery: RFC 8414 then OpenID, both failing.
      expect(down.requests()).toBe(2);
      for (let i = 0; i < 30; i += 1) await verifier.verify(token);
      expect(down.requests()).toBe(2);
      clock += 1_000;
      await verifier.verify(token);
      expect(down.requests()).toBe(4);
      // The next back-off is 2 s: 1 s later still nothing is asked.
      clock += 1_000;
      await verifier.verify(token);
      expect(down.requests()).toBe(4);
      clock += 1_000;
      await verifier.verify(token);
      expect(down.requests()).toBe(6);
    } finally {
      down.server.close();
    }
  });

  it('a garbage token never starts discovery at all', async () => {
    const down = await failingIssuer();
    try {
      const { settings } = oauthSettings({ issuer: down.issuer, audience: 'https://mcp.example/mcp' });
      const verifier = createTokenVerifier(settings!);
      for (const t of ['x', 'a.b.c', 'eyJhbGciOiJub25lIn0.e30.', `${'A'.repeat(20_000)}.b.c`]) {
        expect(await verifier.verify(t)).toMatchObject({ ok: false, status: 401 });
      }
      expect(down.requests()).toBe(0);
    } finally {
      down.server.close();
    }
  });
});
