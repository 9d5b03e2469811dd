/**
 * `idemgen serve --http`: MCP Streamable HTTP on `/mcp`, stateless (a fresh MCP server and transport per
 * request over one shared tool runtime and store), so any number of instances can sit behind a load
 * balancer with one dedup table. Every request passes http-guard.ts first (Origin, Host, static tokens),
 * then, as an OAuth resource server (oauth.ts), the access token: nothing reaches a tool without both.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { ElicitingClient } from '@idemgen/runtime/internal/mcp/elicit.js';
import { type ElicitRelay, readJsonBody } from './elicit-relay.js';
import { bearerToken, checkRequest, type GuardOptions } from './http-guard.js';
import {
  challenge,
  createTokenVerifier,
  resourceMetadata,
  resourceMetadataPaths,
  type OAuthSettings,
  type TokenVerifier,
} from './oauth.js';

/**
 * Who sent one request: its verified principal (none without auth), its headers (upstream credentials) and,
 * when its `Mcp-Session-Id` names a client this process knows can be asked (elicit-relay.ts), that client.
 */
export interface HttpCaller {
  auth?: AuthInfo;
  headers: IncomingMessage['headers'];
  client?: ElicitingClient;
}

export interface HttpServeOptions extends GuardOptions {
  port: number;
  host: string;
  /** OAuth resource server mode; exclusive with static `tokens`. */
  oauth?: OAuthSettings;
  /** A fresh MCP server for one request, shaped by its caller (a read-only token lists only read tools). */
  makeServer: (caller: HttpCaller) => McpServer;
  fetch?: typeof fetch;
  /** Questions to the user (MCP elicitation) across stateless requests; absent: none are asked. */
  relay?: ElicitRelay;
}

function refuse(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (status === 401 && headers['www-authenticate'] === undefined)
    headers['www-authenticate'] = 'Bearer realm="idemgen"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

/** RFC 9728 metadata is public (a client reads it before it has a token), from any origin. */
function metadata(req: IncomingMessage, res: ServerResponse, oauth: OAuthSettings): void {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET' });
    res.end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    refuse(res, 405, 'Method not allowed: GET the metadata', { allow: 'GET' });
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify(resourceMetadata(oauth)));
}

/** The OAuth check: a token from the issuer for this audience, or a 401 whose challenge says where to get one. */
async function authorize(
  req: IncomingMessage,
  res: ServerResponse,
  oauth: OAuthSettings,
  verifier: TokenVerifier,
): Promise<AuthInfo | undefined> {
  const token = bearerToken(req);
  if (token === undefined) {
    refuse(res, 401, 'An OAuth access token is required; the resource metadata names the authorization server', {
      'www-authenticate': challenge(oauth),
    });
    return undefined;
  }
  const verdict = await verifier.verify(token);
  if (!verdict.ok) {
    if (verdict.status === 503) refuse(res, 503, `Cannot check the access token: ${verdict.description}`);
    else
      refuse(res, 401, `The access token is not accepted: ${verdict.description}`, {
        'www-authenticate': challenge(oauth, { code: 'invalid_token', description: verdict.description }),
      });
    return undefined;
  }
  const { subject, scopes, clientId, expiresAt } = verdict.token;
  // `token` stays in this process: upstream credentials never come from it (no token passthrough).
  return { token, clientId, scopes, ...(expiresAt !== undefined ? { expiresAt } : {}), extra: { sub: subject } };
}

async function handle(
  req: IncomingMessage & { auth?: AuthInfo },
  res: ServerResponse,
  opts: HttpServeOptions,
  verifier: TokenVerifier | undefined,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (opts.oauth !== undefined && resourceMetadataPaths(opts.oauth.audience).includes(path))
    return metadata(req, res, opts.oauth);
  if (path !== '/mcp') return refuse(res, 404, 'Not found: the MCP endpoint is /mcp');
  const verdict = checkRequest(req, opts);
  if (!verdict.ok) return refuse(res, verdict.status, verdict.message);
  // Stateless: no session to resume or delete, and no server-initiated messages. The Streamable HTTP spec
  // lets a server without a standalone SSE stream answer GET with 405 (the SDK's transport would instead
  // hold the GET open forever); DELETE ends a session, and there is none.
  if (req.method !== 'POST')
    return refuse(
      res,
      405,
      `Method not allowed: ${req.method === 'GET' ? 'this server offers no SSE stream; ' : ''}send JSON-RPC with POST`,
      { allow: 'POST' },
    );
  if (opts.oauth !== undefined && verifier !== undefined) {
    const auth = await authorize(req, res, opts.oauth, verifier);
    if (auth === undefined) return;
    req.auth = auth;
  } else if (verdict.subject !== undefined) {
    // The subject is the dedup scope (runtime/mcp/caller.ts defaultScope reads authInfo.extra.sub).
    req.auth = { token: verdict.token ?? '', clientId: verdict.subject, scopes: [], extra: { sub: verdict.subject } };
  }
  const subject = req.auth?.extra?.sub as string | undefined;
  const record = opts.relay?.find(req.headers['mcp-session-id'], subject);
  let body: unknown;
  if (record !== undefined) {
    // A client that can be asked: its POST may be answers to questions a request in flight is waiting for.
    const read = await readJsonBody(req);
    if (!read.ok) return refuse(res, 400, 'Parse error: the body is not JSON (or larger than 4 MB)');
    if (opts.relay?.deliver(record, read.value)) {
      res.writeHead(202).end();
      return;
    }
    body = read.value;
  }
  const server = opts.makeServer({
    ...(req.auth ? { auth: req.auth } : {}),
    headers: req.headers,
    ...(record !== undefined ? { client: record.client } : {}),
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  const sessionHeader = (id: string) => {
    if (!res.headersSent) res.setHeader('mcp-session-id', id);
  };
  await server.connect(
    opts.relay === undefined ? transport : opts.relay.wrap(transport, { record, subject, sessionHeader }),
  );
  await transport.handleRequest(req, res, body);
}

export async function listenHttp(opts: HttpServeOptions): Promise<{ server: HttpServer; url: string }> {
  const verifier = opts.oauth === undefined ? undefined : createTokenVerifier(opts.oauth, opts.fetch);
  const server = createServer((req, res) => {
    handle(req, res, opts, verifier).catch((err: unknown) => {
      if (!res.headersSent) refuse(res, 500, `internal error: ${err instanceof Error ? err.message : String(err)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return { server, url: `http://${host}:${port}/mcp` };
}
