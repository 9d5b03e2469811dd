/**
 * A real OAuth 2.1 / OpenID authorization server for the resource-server tests: `oidc-provider` on
 * 127.0.0.1 with client-credentials clients and resource indicators, so every access token is a JWT
 * (RFC 9068) for the resource it was asked for. The client id is the token's `sub`. With `codeClients`
 * it also serves the authorization-code flow (public clients, PKCE) and its own sign-in and consent
 * pages (`/interaction/:uid`); there the signed-in account is the token's `sub`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface OidcClient {
  id: string;
  secret: string;
  /** Scopes the client may ask for. */
  scope: string;
}

/** A public client (no secret) of the authorization-code flow: PKCE is what binds the code to it. */
export interface OidcCodeClient {
  id: string;
  redirectUri: string;
  scope: string;
}

export interface OidcServer {
  issuer: string;
  /** The private signing key (with its `kid`), for tokens the provider will not mint (expired ones). */
  privateJwk: JWK;
  /** Every request's path, in order (what a resource server's discovery and key fetches cost the issuer). */
  requests: string[];
  /** A client-credentials access token for `resource` with the given scopes. */
  token(client: OidcClient, resource: string, scope: string): Promise<string>;
  close(): Promise<void>;
}

export async function signingKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

export async function startOidcServer(
  clients: readonly OidcClient[],
  key: JWK,
  codeClients: readonly OidcCodeClient[] = [],
): Promise<OidcServer> {
  let handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void = (
    _req,
    res,
  ) => res.end();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      ...clients.map((c) => ({
        client_id: c.id,
        client_secret: c.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: c.scope,
        token_endpoint_auth_method: 'client_secret_post',
      })),
      ...codeClients.map((c) => ({
        client_id: c.id,
        application_type: 'native',
        grant_types: ['authorization_code'],
        redirect_uris: [c.redirectUri],
        response_types: ['code'],
        scope: c.scope,
        token_endpoint_auth_method: 'none',
      })),
    ],
    pkce: { methods: ['S256'], required: () => true },
    scopes: ['mcp:read', 'mcp:write'],
    ttl: {
      ClientCredentials: 300,
      AccessToken: 300,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
    // Any sign-in name is an account; the name is the token's subject.
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    cookies: { keys: ['idemgen-test-cookie-key-0123456789'] },
    jwks: { keys: [key] },
    features: {
      // The provider's own sign-in and consent pages, only where a test runs the authorization-code flow.
      devInteractions: { enabled: codeClients.length > 0 },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as unknown as string,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: 'mcp:read mcp:write',
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  handler = provider.callback();
  return {
    issuer,
    privateJwk: key,
    requests,
    async token(client, resource, scope) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.id,
          client_secret: client.secret,
          scope,
          resource,
        }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (!res.ok || body.access_token === undefined)
        throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
