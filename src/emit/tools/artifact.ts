import { defineArtifact } from '../artifact.js';

export const toolsArtifact = defineArtifact({
  name: 'tools',
  summary: 'MCP, OpenAI and Anthropic tool schemas with a required idempotency_key (tools/<format>/<api>.tools.json)',
  byDefault: true,
  // Streams from the tool model: Graph-sized APIs produce ~150 MB of tool JSON, written tool by tool.
  consumes: ['plan', 'toolModel'],
  load: async () => (await import('./index.js')).toolsConsumer,
});
