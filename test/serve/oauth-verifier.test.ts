/**
 * The token verifier against a loopback authorization server whose metadata and keys the test controls:
 * discovery order for an issuer with a path, the issuer check on metadata, key rotation picked up through
 * an unknown `kid`, and the cooldown that keeps a flood of unknown `kid`s from refetching the JWKS.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createTokenVerifier, discoveryUrls, oauthSettings, resourceMetadataUrl } from '../../src/serve/oauth.js';

const AUDIENCE = 'https://mcp.example.com/mcp';

async function key(kid: string): Promise<{ priv: JWK; pub: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return {
    priv: { ...(await exportJWK(privateKey)), kid, alg: 'ES256' },
    pub: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' },
  };
}

interface FakeIssuer {
  issuer: string;
  paths: string[];
  keys: JWK[];
  /** What the metadata says its issuer is (default: the real one). */
  claimedIssuer?: string;
  server: Server;
}

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

/** Serves only the OpenID form appended to the issuer's path, and its JWKS; records every path asked. */
async function fakeIssuer(tenant: string): Promise<FakeIssuer> {
  const state = { issuer: '', paths: [] as string[], keys: [] as JWK[] } as FakeIssuer;
  state.server = createServer((req, res) => {
    const path = req.url ?? '';
    state.paths.push(path);
    if (path === `${tenant}/.well-known/openid-configuration`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer: state.claimedIssuer ?? state.issuer, jwks_uri: `${state.issuer}/jwks` }));
    } else if (path === `${tenant}/jwks`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: state.keys }));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  open.push(state.server);
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.issuer = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}${tenant}`;
  return state;
}

const settings = (issuer: string) => {
  const { settings: s, problems } = oauthSettings({ issuer, audience: AUDIENCE });
  expect(problems).toEqual([]);
  return s!;
};

const token = async (issuer: string, priv: JWK) =>
  new SignJWT({ scope: 'mcp:write' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: priv.kid as string })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setSubject('user-1')
    .setExpirationTime('5m')
    .sign(await importJWK(priv, 'ES256'));

describe('metadata locations', () => {
  it('inserts the well-known segment before the path (RFC 9728, RFC 8414) and appends OpenID last', () => {
    expect(resourceMetadataUrl('https://h.example/mcp')).toBe(
      'https://h.example/.well-known/oauth-protected-resource/mcp',
    );
    expect(resourceMetadataUrl('https://h.example/')).toBe('https://h.example/.well-known/oauth-protected-resource');
    expect(discoveryUrls('https://as.example/tenant1')).toEqual([
      'https://as.example/.well-known/oauth-authorization-server/tenant1',
      'https://as.example/.well-known/openid-configuration/tenant1',
      'https://as.example/tenant1/.well-known/openid-configuration',
    ]);
    expect(discoveryUrls('https://as.example')).toEqual([
      'https://as.example/.well-known/oauth-authorization-server',
      'https://as.example/.well-known/openid-configuration',
    ]);
  });
});

describe('createTokenVerifier', () => {
  it('finds the keys of an issuer with a path through the third discovery form, in order', async () => {
    const as = await fakeIssuer('/tenant1');
    const k1 = await key('k1');
    as.keys = [k1.pub];
    const verdict = await createTokenVerifier(settings(as.issuer)).verify(await token(as.issuer, k1.priv));
    expect(verdict).toMatchObject({ ok: true, token: { subject: 'user-1', scopes: ['mcp:write'] } });
    expect(as.paths).toEqual([
      '/.well-known/oauth-authorization-server/tenant1',
      '/.well-known/openid-configuration/tenant1',
      '/tenant1/.well-known/openid-configuration',
      '/tenant1/jwks',
    ]);
  });

  it('takes the subject from the configured claim, and refuses a token without it', async () => {
    const as = await fakeIssuer('/claim');
    const k1 = await key('k1');
    as.keys = [k1.pub];
    const { settings: s } = oauthSettings({ issuer: as.issuer, audience: AUDIENCE, subjectClaim: 'user_id' });
    const verifier = createTokenVerifier(s!);
    const key1 = await importJWK(k1.priv, 'ES256');
    const signed = async (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k1' })
        .setIssuer(as.issuer)
        .setAudience(AUDIENCE)
        .setSubject('service-account')
        .setExpirationTime('5m')
        .sign(key1);
    expect(await verifier.verify(await signed({ user_id: 'u-42', scp: ['mcp:write'] }))).toMatchObject({
      ok: true,
      token: { subject: 'u-42', scopes: ['mcp:write'] },
    });
    expect(await verifier.verify(await signed({}))).toMatchObject({
      ok: false,
      status: 401,
      description: 'the token names no subject in claim user_id',
    });
  });

  it('does not use metadata that names another issuer (a 503, not an accepted token)', async () => {
    const as = await fakeIssuer('/t');
    const k1 = await key('k1');
    as.keys = [k1.pub];
    as.claimedIssuer = 'https://attacker.example';
    const verdict = await createTokenVerifier(settings(as.issuer)).verify(await token(as.issuer, k1.priv));
    expect(verdict).toMatchObject({ ok: false, status: 503 });
    expect((verdict as { description: string }).description).toMatch(/names issuer "https:\/\/attacker.example"/);
    expect(as.paths).not.toContain('/t/jwks');
  });

  it('answers 503 while the issuer is unreachable and discovers again once the back-off has passed', async () => {
    const k1 = await key('k1');
    const down = settings('http://127.0.0.1:1/gone');
    const verdict = await createTokenVerifier(down).verify(await token(down.issuer, k1.priv));
    expect(verdict).toMatchObject({ ok: false, status: 503 });
    expect((verdict as { description: string }).description).toMatch(/no usable metadata for issuer/);
    const as = await fakeIssuer('/late');
    as.keys = [k1.pub];
    let up = false;
    let clock = 0;
    const verifier = createTokenVerifier(
      settings(as.issuer),
      (input, init) => (up ? fetch(input, init) : Promise.reject(new Error('connection refused'))),
      undefined,
      () => clock,
    );
    expect(await verifier.verify(await token(as.issuer, k1.priv))).toMatchObject({ ok: false, status: 503 });
    up = true;
    // Within the back-off the failure is answered from memory; after it, discovery runs again.
    expect(await verifier.verify(await token(as.issuer, k1.priv))).toMatchObject({ ok: false, status: 503 });
    clock += 1_000;
    expect((await verifier.verify(await token(as.issuer, k1.priv))).ok).toBe(true);
  });

  it('picks up a rotated key through an unknown kid once the cooldown has passed', async () => {
    const as = await fakeIssuer('/rot');
    const [k1, k2] = [await key('k1'), await key('k2')];
    as.keys = [k1.pub];
    const verifier = createTokenVerifier(settings(as.issuer), fetch, 100);
    expect((await verifier.verify(await token(as.issuer, k1.priv))).ok).toBe(true);
    as.keys = [k2.pub];
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await verifier.verify(await token(as.issuer, k2.priv))).ok).toBe(true);
    expect(as.paths.filter((p) => p === '/rot/jwks')).toHaveLength(2);
  });

  it('refetches the JWKS at most once per cooldown however many unknown kids arrive', async () => {
    const as = await fakeIssuer('/flood');
    const k1 = await key('k1');
    as.keys = [k1.pub];
    const verifier = createTokenVerifier(settings(as.issuer), fetch, 60_000);
    expect((await verifier.verify(await token(as.issuer, k1.priv))).ok).toBe(true);
    for (let i = 0; i < 20; i += 1) {
      const stranger = await key(`unknown-${i}`);
      const verdict = await verifier.verify(await token(as.issuer, stranger.priv));
      expect(verdict).toMatchObject({ ok: false, status: 401 });
    }
    expect(as.paths.filter((p) => p === '/flood/jwks')).toHaveLength(1);
  });
});
