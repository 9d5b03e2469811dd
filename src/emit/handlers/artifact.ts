import { defineArtifact } from '../artifact.js';

export const handlersArtifact = defineArtifact({
  name: 'handlers',
  summary: 'typed tool runtimes per API: model tool call → one deduplicated HTTP effect (handlers/<api>.tools.gen.ts)',
  byDefault: true,
  selectsTools: true,
  load: async () => (await import('./index.js')).streamHandlers,
  // With the tools artifact: its bindings are written from the tools' specs (tools/spec-rider.ts).
  loadRider: async () => (await import('./index.js')).handlersRider,
});
