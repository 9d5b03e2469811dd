import { defineArtifact } from '../artifact.js';

export const handlersArtifact = defineArtifact({
  name: 'handlers',
  summary: 'typed tool runtimes per API: model tool call → one deduplicated HTTP effect (handlers/<api>.tools.gen.ts)',
  byDefault: true,
  // Each binding is written from the tool the model built once for the run (emit/tool-model.ts).
  consumes: ['plan', 'toolModel'],
  load: async () => (await import('./index.js')).handlersConsumer,
});
