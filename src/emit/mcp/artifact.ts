import { defineArtifact, fromWholeFiles } from '../artifact.js';

export const mcpArtifact = defineArtifact({
  name: 'mcp',
  summary:
    'an MCP server module per API over the handlers artifact: register<Api>Tools(server, options) and a stdio main() (mcp/<api>.server.gen.ts)',
  byDefault: true,
  consumes: ['plan'],
  selectsTools: true,
  load: async () => fromWholeFiles((await import('./index.js')).emitMcp),
});
