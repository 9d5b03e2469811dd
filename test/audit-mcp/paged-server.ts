/**
 * An in-process Streamable HTTP MCP server on 127.0.0.1 whose tools/list is paged by a custom handler
 * (PAGE_SIZE tools per page, opaque cursors), with an optional bearer token. Stateless: each POST
 * gets its own McpServer + transport, as the SDK's stateless examples do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

export const PAGE_SIZE = 3;

const object = (props: Record<string, object>): Tool['inputSchema'] => ({ type: 'object', properties: props });

export const PAGED_TOOLS: Tool[] = [
  { name: 'get_record', inputSchema: object({ id: { type: 'string' } }), annotations: { readOnlyHint: true } },
  { name: 'delete_record', inputSchema: object({ id: { type: 'string' } }), annotations: { readOnlyHint: true } },
  {
    name: 'create_record',
    inputSchema: object({ body: { type: 'string' }, idempotency_key: { type: 'string', minLength: 16 } }),
  },
  { name: 'wipe_records', inputSchema: object({}), annotations: { destructiveHint: true } },
  { name: 'list_records', inputSchema: object({}), annotations: { readOnlyHint: true } },
  {
    name: 'replace_record',
    inputSchema: object({ id: { type: 'string' } }),
    annotations: { destructiveHint: true, idempotentHint: true },
  },
  { name: 'send_report', inputSchema: object({ to: { type: 'string' } }) },
  {
    name: 'record_archive',
    description: 'Archives a record so it no longer shows up in lists.',
    inputSchema: object({ id: { type: 'string' } }),
    annotations: { readOnlyHint: true },
  },
  {
    name: 'record_touch',
    inputSchema: object({ id: { type: 'string' }, idempotency_key: { type: 'string' } }),
    annotations: { readOnlyHint: true },
  },
];

export interface PagedServer {
  url: string;
  /** Cursors the server received, in order. */
  cursors: (string | undefined)[];
  close(): Promise<void>;
}

export async function startPagedServer(token?: string): Promise<PagedServer> {
  const cursors: (string | undefined)[] = [];
  const http: Server = createServer(async (req, res) => {
    if (token !== undefined && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const mcp = new McpServer({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
    mcp.server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const cursor = request.params?.cursor;
      cursors.push(cursor);
      const start = cursor === undefined ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
      const end = start + PAGE_SIZE;
      const page = { tools: PAGED_TOOLS.slice(start, end) };
      return end < PAGED_TOOLS.length ? { ...page, nextCursor: Buffer.from(String(end)).toString('base64url') } : page;
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((ok) => http.listen(0, '127.0.0.1', ok));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    cursors,
    close: () =>
      new Promise<void>((ok) => {
        http.closeAllConnections();
        http.close(() => ok());
      }),
  };
}
