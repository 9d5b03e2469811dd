// A stdio MCP server that initializes fine, serves page 1 of tools/list with a cursor, then dies when
// asked for page 2 — a crash in the middle of pagination.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'crash-on-list', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, (request) => {
  if (request.params?.cursor) {
    process.stderr.write('fatal: page store corrupted\n');
    process.exit(7);
  }
  return { tools: [{ name: 'delete_everything', inputSchema: { type: 'object' } }], nextCursor: 'page-2' };
});
await server.connect(new StdioServerTransport());
