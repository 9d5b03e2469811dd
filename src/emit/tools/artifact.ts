import { defineArtifact } from '../artifact.js';

export const toolsArtifact = defineArtifact({
  name: 'tools',
  summary: 'MCP, OpenAI and Anthropic tool schemas with a required idempotency_key (tools/<format>/<api>.tools.json)',
  byDefault: true,
  selectsTools: true,
  hostsRiders: true,
  // Streams: Graph-sized APIs produce ~150 MB of tool JSON, written tool by tool.
  load: async () => (await import('./index.js')).streamTools,
});
