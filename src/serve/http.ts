/**
 * `idemgen serve --http`: MCP Streamable HTTP on `/mcp`, stateless (a fresh MCP server and transport per
 * request over one shared tool runtime and store), so any number of instances can sit behind a load
 * balancer with one dedup table. Every request passes http-guard.ts first: nothing reaches a tool
 * without an allowed Origin and, when tokens are configured, a valid bearer token.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { checkRequest, type GuardOptions } from './http-guard.js';

export interface HttpServeOptions extends GuardOptions {
  port: number;
  host: string;
  makeServer: () => McpServer;
}

function refuse(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="idemgen"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

async function handle(
  req: IncomingMessage & { auth?: AuthInfo },
  res: ServerResponse,
  opts: HttpServeOptions,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
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
  if (verdict.subject !== undefined) {
    // The subject is the dedup scope (register.ts defaultScope reads authInfo.extra.sub).
    req.auth = { token: verdict.token ?? '', clientId: verdict.subject, scopes: [], extra: { sub: verdict.subject } };
  }
  const server = opts.makeServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

export async function listenHttp(opts: HttpServeOptions): Promise<{ server: HttpServer; url: string }> {
  const server = createServer((req, res) => {
    handle(req, res, opts).catch((err: unknown) => {
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
